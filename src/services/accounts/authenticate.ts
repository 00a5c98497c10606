/**
 * Turns the secret a request carries — a session cookie or a Bearer API token — into a principal.
 * Only digests are looked up; an unknown, expired or revoked secret is simply no principal.
 */
import { API_TOKEN_PREFIX, digestOf } from "../../auth/secrets";
import type { Storage } from "../../storage/types";
import type { Principal } from "./access";

/** Last-used times are written at most this often per token, so busy scripts do not write on every call. */
const TOKEN_USE_RESOLUTION_MS = 60_000;

export async function authenticateSession(storage: Storage, sessionToken: string, now: number): Promise<Principal | null> {
  if (!/^[0-9a-f]{64}$/.test(sessionToken)) return null;
  const session = await storage.accounts.loginSessions.getValid(digestOf(sessionToken), now);
  if (!session) return null;
  const user = await storage.accounts.users.getById(session.userId);
  return user ? { kind: "session", user, session } : null;
}

export async function authenticateApiToken(storage: Storage, bearer: string, now: number): Promise<Principal | null> {
  if (!bearer.startsWith(API_TOKEN_PREFIX) || bearer.length > 200) return null;
  const token = await storage.accounts.tokens.getByHash(digestOf(bearer));
  if (!token) return null;
  const user = await storage.accounts.users.getById(token.userId);
  if (!user) return null;
  if (token.lastUsed === null || now - token.lastUsed >= TOKEN_USE_RESOLUTION_MS) {
    await storage.accounts.tokens.recordUse(token.id, now);
  }
  return { kind: "token", user, token: { ...token, lastUsed: now } };
}
