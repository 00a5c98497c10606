/**
 * Login, logout and the throttle against password guessing. Failures are counted in storage (so the
 * limit holds across processes on PostgreSQL) per account and per client address over a sliding
 * window; while either is over its limit, even the right password is refused, with the wait named.
 */
import { AppError } from "../../errors";
import { hashPassword, verifyPassword } from "../../auth/password";
import { digestOf, newSecret } from "../../auth/secrets";
import type { LoginSession, User } from "../../model";
import type { Storage } from "../../storage/types";

const LOGIN_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;

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

interface Reservation {
  keys: { key: string; limit: number; who: string }[];
  at: number;
}

/**
 * Counts this attempt as a failure *before* the password is checked, so that attempts arriving
 * together cannot all pass a count taken before any of them is recorded (500 parallel guesses would
 * otherwise all get through). An attempt over a limit is refused and un-counted; one that succeeds
 * is un-counted afterwards.
 */
async function reserveAttempt(storage: Storage, keys: Reservation["keys"], now: number): Promise<Reservation> {
  const throttle = storage.accounts.loginThrottle;
  for (const { key } of keys) await throttle.recordFailure(key, now);
  // A failure exactly LOGIN_WINDOW_MS old has left the window.
  const since = now - LOGIN_WINDOW_MS + 1;
  for (const { key, limit, who } of keys) {
    if ((await throttle.countSince(key, since)) <= limit) continue;
    for (const reserved of keys) await throttle.forgetOne(reserved.key, now);
    const oldest = (await throttle.oldestSince(key, since)) ?? now;
    const waitSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - now) / 1000));
    const minutes = Math.ceil(waitSeconds / 60);
    throw new AppError(
      "rate_limited",
      `Too many failed login attempts ${who}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      [],
      waitSeconds,
    );
  }
  return { keys, at: now };
}

async function releaseAttempt(storage: Storage, reservation: Reservation): Promise<void> {
  for (const { key } of reservation.keys) await storage.accounts.loginThrottle.forgetOne(key, reservation.at);
}

/**
 * Verifies a password against the account's hash — or, for an unknown account, against a fixed hash,
 * so that the answer takes as long either way and does not reveal which addresses have accounts.
 */
let decoyHash: Promise<string> | null = null;
async function passwordMatches(storage: Storage, user: User | null, password: string): Promise<boolean> {
  const hash = user ? await storage.accounts.users.passwordHashOf(user.id) : null;
  if (hash) return verifyPassword(password, hash);
  decoyHash ??= hashPassword("periscope-decoy-password");
  await verifyPassword(password, await decoyHash);
  return false;
}

export async function login(storage: Storage, input: LoginInput): Promise<StartedSession> {
  const { now } = input;
  const email = input.email.trim().toLowerCase();
  const keys = [{ key: accountKey(email), limit: MAX_FAILURES_PER_ACCOUNT, who: "for this account" }];
  if (input.ipAddress) keys.push({ key: addressKey(input.ipAddress), limit: MAX_FAILURES_PER_ADDRESS, who: "from your network address" });
  const reservation = await reserveAttempt(storage, keys, now);
  const user = await storage.accounts.users.getByEmail(email);
  if (!user || !(await passwordMatches(storage, user, input.password))) {
    // The reserved failures stay: they are this attempt's.
    throw new AppError("unauthorized", "The email address or password is not correct.");
  }
  await releaseAttempt(storage, reservation);
  await storage.accounts.loginThrottle.clear(accountKey(email));
  await storage.accounts.users.recordLogin(user.id, now);
  return startSession(storage, user, now, input.sessionTtlMs);
}

/**
 * Checks a signed-in person's current password (password change) under the same per-account throttle
 * as login, so a borrowed session cannot guess it without limit.
 */
export async function confirmPassword(storage: Storage, user: User, password: string, now: number): Promise<boolean> {
  const reservation = await reserveAttempt(storage, [{ key: accountKey(user.email), limit: MAX_FAILURES_PER_ACCOUNT, who: "for this account" }], now);
  if (!(await passwordMatches(storage, user, password))) return false;
  await releaseAttempt(storage, reservation);
  return true;
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
