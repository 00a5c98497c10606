/**
 * Random secrets (session cookies, API tokens, invite links) and their digests. Only the SHA-256
 * digest is stored: the secrets are 256 random bits, so a fast hash is enough and makes lookup by
 * digest possible; passwords, which people choose, use argon2id instead (password.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** API tokens look like Sentry's user auth tokens, which sentry-cli and other tools recognise. */
export const API_TOKEN_PREFIX = "sntryu_";

export function newSecret(): string {
  return randomBytes(32).toString("hex");
}

export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${newSecret()}`;
}

export function digestOf(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time string comparison (CSRF tokens). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
