/**
 * Password hashing with argon2id (OWASP's parameters: 19 MiB, 2 passes, 1 lane). The `argon2` package
 * ships prebuilt binaries inside its npm tarball (nothing is downloaded at install) and hashes on
 * libuv's thread pool: a login takes ~100 ms of CPU, which must not stall ingest on the event loop.
 */
import argon2 from "argon2";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1, hashLength: 32 });
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  if (!encoded.startsWith("$argon2id$")) return false;
  try {
    return await argon2.verify(encoded, password);
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
