/**
 * Login, logout and the throttle against password guessing. Failures are counted in storage (so the
 * limit holds across processes on PostgreSQL) per account and per client address over a sliding
 * window; while either is over its limit, even the right password is refused, with the wait named.
 */
import { AppError } from "../../errors";
import { verifyPassword } from "../../auth/password";
import { digestOf, newSecret } from "../../auth/secrets";
import type { LoginSession, Storage, User } from "../../storage/types";

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export interface LoginInput {
  email: string;
  password: string;
  ipAddress: string | null;
  now: number;
  sessionTtlMs: number;
}

export interface StartedSession {
  /** The cookie value: shown to the browser once, stored only as a digest. */
  sessionToken: string;
  session: LoginSession;
  user: User;
}

const accountKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

async function refuseWhileThrottled(storage: Storage, key: string, limit: number, now: number, who: string): Promise<void> {
  // A failure exactly LOGIN_WINDOW_MS old has left the window.
  const since = now - LOGIN_WINDOW_MS + 1;
  const failures = await storage.accounts.loginThrottle.countSince(key, since);
  if (failures < limit) return;
  const oldest = (await storage.accounts.loginThrottle.oldestSince(key, since)) ?? now;
  const waitSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - now) / 1000));
  const minutes = Math.ceil(waitSeconds / 60);
  throw new AppError(
    "rate_limited",
    `Too many failed login attempts ${who}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    [],
    waitSeconds,
  );
}

export async function login(storage: Storage, input: LoginInput): Promise<StartedSession> {
  const { now } = input;
  const email = input.email.trim().toLowerCase();
  await refuseWhileThrottled(storage, accountKey(email), MAX_FAILURES_PER_ACCOUNT, now, "for this account");
  if (input.ipAddress) {
    await refuseWhileThrottled(storage, addressKey(input.ipAddress), MAX_FAILURES_PER_ADDRESS, now, "from your network address");
  }
  const user = await storage.accounts.users.getByEmail(email);
  const hash = user ? await storage.accounts.users.passwordHashOf(user.id) : null;
  const ok = user !== null && hash !== null && (await verifyPassword(input.password, hash));
  if (!ok || !user) {
    await storage.accounts.loginThrottle.recordFailure(accountKey(email), now);
    if (input.ipAddress) await storage.accounts.loginThrottle.recordFailure(addressKey(input.ipAddress), now);
    throw new AppError("unauthorized", "The email address or password is not correct.");
  }
  await storage.accounts.loginThrottle.clear(accountKey(email));
  await storage.accounts.users.recordLogin(user.id, now);
  return startSession(storage, user, now, input.sessionTtlMs);
}

export async function startSession(storage: Storage, user: User, now: number, ttlMs: number): Promise<StartedSession> {
  const sessionToken = newSecret();
  const session = await storage.accounts.loginSessions.create({
    userId: user.id,
    tokenHash: digestOf(sessionToken),
    csrfToken: newSecret(),
    expiresAt: now + ttlMs,
  });
  return { sessionToken, session, user };
}

export async function logout(storage: Storage, session: LoginSession): Promise<void> {
  await storage.accounts.loginSessions.delete(session.id);
}

/** Ends every session of the person, this one included. */
export async function logoutEverywhere(storage: Storage, user: User): Promise<number> {
  return storage.accounts.loginSessions.deleteForUser(user.id);
}
