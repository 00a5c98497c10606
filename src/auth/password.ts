/**
 * Password hashing with argon2id (OWASP's parameters: 19 MiB, 2 passes, 1 lane). hash-wasm runs it as
 * WebAssembly shipped inside the npm package: nothing is downloaded or compiled at install.
 */
import { randomBytes } from "node:crypto";
import { argon2id, argon2Verify } from "hash-wasm";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export async function hashPassword(password: string): Promise<string> {
  return argon2id({
    password,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: 2,
    memorySize: 19_456,
    hashLength: 32,
    outputType: "encoded",
  });
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  if (!encoded.startsWith("$argon2id$")) return false;
  try {
    return await argon2Verify({ password, hash: encoded });
  } catch {
    return false;
  }
}

/** Null when acceptable, else the reason, worded for the person choosing it. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}
