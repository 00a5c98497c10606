/**
 * Login, logout and the throttle against password guessing. Failures are counted in storage (so the
 * limits hold across processes on PostgreSQL) over sliding windows, per (client address, account),
 * per client address and per account: see LOGIN_LIMITS and docs/security.md ("Login throttling").
 *
 * Only the first two ever refuse outright, so an attacker elsewhere cannot lock a person out: their
 * failures count against their own address, never against the person's. The per-account budget is
 * for an attack spread over many addresses; past it, each address gets one try at that account per
 * window, so a botnet is slowed twentyfold while the person, from an address that has not failed
 * there, still signs in (OWASP: lockouts that anyone can trigger are a denial of service).
 */
import { AppError } from "../../errors";
import { hashPassword, verifyPassword } from "../../auth/password";
import { digestOf, newSecret } from "../../auth/secrets";
import type { LoginSession, User } from "../../model";
import type { Storage } from "../../storage/types";
import { throttleAddressOf } from "./throttle-address";

const MINUTE_MS = 60_000;
const MAX_EMAIL_LENGTH = 254;
const WRONG_CREDENTIALS = "The email address or password is not correct.";

export const LOGIN_LIMITS = {
  /** One address guessing one account. */
  addressAndAccount: { max: 5, windowMs: 15 * MINUTE_MS },
  /** One address guessing across accounts (credential stuffing). */
  address: { max: 50, windowMs: 15 * MINUTE_MS },
  /** Every address together against one account; past it, one try per address per window. */
  account: { max: 100, windowMs: 60 * MINUTE_MS },
  /** Wrong current passwords in a password change (a borrowed session guessing). */
  passwordChange: { max: 5, windowMs: 15 * MINUTE_MS },
} as const;

export interface LoginInput {
  email: string;
  password: string;
  /** As server.ts found it; null (no server.ts in front) counts as one shared address, "unknown". */
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

/** Throttle keys (login_failures.key). "email:" and "ip:" are as before, so counted failures carry over. */
const accountKey = (email: string) => `email:${email}`;
const addressKey = (address: string) => `ip:${address}`;
const pairKey = (address: string, email: string) => `ip-email:${address} ${email}`;
const passwordChangeKey = (userId: string) => `password:${userId}`;

/** Failures of `key` in the `windowMs` before `now` (one exactly `windowMs` old has left it). */
const countIn = (storage: Storage, key: string, windowMs: number, now: number) => storage.accounts.loginThrottle.countSince(key, now - windowMs + 1);

/**
 * Counts this attempt as a failure under every key *before* the password is checked, so that
 * attempts arriving together cannot all pass a count taken before any of them is recorded (500
 * parallel guesses would otherwise all get through). A refused attempt is un-counted; so is one that
 * succeeds, afterwards.
 */
async function reserve(storage: Storage, keys: readonly string[], now: number): Promise<void> {
  for (const key of keys) await storage.accounts.loginThrottle.recordFailure(key, now);
}

async function release(storage: Storage, keys: readonly string[], now: number): Promise<void> {
  for (const key of keys) await storage.accounts.loginThrottle.forgetOne(key, now);
}

/** Un-counts the reservation and refuses, naming the wait until the oldest failure of `key` leaves its window. */
async function refuse(storage: Storage, reserved: readonly string[], key: string, windowMs: number, now: number, reason: string): Promise<never> {
  await release(storage, reserved, now);
  const oldest = (await storage.accounts.loginThrottle.oldestSince(key, now - windowMs + 1)) ?? now;
  const waitSeconds = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  const minutes = Math.ceil(waitSeconds / 60);
  throw new AppError("rate_limited", `${reason} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, [], waitSeconds);
}

/** Reserves a login attempt under all three keys, or refuses it (429) when a limit says so. Returns the keys reserved. */
async function admitLogin(storage: Storage, email: string, address: string, now: number): Promise<string[]> {
  const pair = pairKey(address, email);
  const reserved = [pair, addressKey(address), accountKey(email)];
  await reserve(storage, reserved, now);
  const { addressAndAccount, address: perAddress, account } = LOGIN_LIMITS;
  if ((await countIn(storage, pair, addressAndAccount.windowMs, now)) > addressAndAccount.max) {
    await refuse(storage, reserved, pair, addressAndAccount.windowMs, now, "Too many failed login attempts for this account from your network address.");
  }
  if ((await countIn(storage, addressKey(address), perAddress.windowMs, now)) > perAddress.max) {
    await refuse(storage, reserved, addressKey(address), perAddress.windowMs, now, "Too many failed login attempts from your network address.");
  }
  // Under a spread-out attack an address that already failed at this account waits out the window;
  // one that has not (the count is this attempt alone) is still let through to the password check.
  if ((await countIn(storage, accountKey(email), account.windowMs, now)) > account.max && (await countIn(storage, pair, account.windowMs, now)) > 1) {
    await refuse(storage, reserved, pair, account.windowMs, now, "This account is receiving many failed login attempts; from your network address, one attempt an hour is allowed.");
  }
  return reserved;
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
  // No account has a longer address (services/accounts/users.ts); such a key would only bloat login_failures.
  if (email.length > MAX_EMAIL_LENGTH) throw new AppError("unauthorized", WRONG_CREDENTIALS);
  const address = throttleAddressOf(input.ipAddress);
  const reserved = await admitLogin(storage, email, address, now);
  const user = await storage.accounts.users.getByEmail(email);
  if (!user || !(await passwordMatches(storage, user, input.password))) {
    // The reserved failures stay: they are this attempt's.
    throw new AppError("unauthorized", WRONG_CREDENTIALS);
  }
  await release(storage, reserved, now);
  // This address's earlier mistakes at this account are forgiven; the account-wide count is not, or
  // the person signing in would reset the budget of whoever is attacking the account.
  await storage.accounts.loginThrottle.clear(pairKey(address, email));
  await storage.accounts.users.recordLogin(user.id, now);
  return startSession(storage, user, now, input.sessionTtlMs);
}

/**
 * Checks a signed-in person's current password (password change) under a throttle of its own, so a
 * borrowed session cannot guess it without limit, and failed logins by others cannot block it.
 */
export async function confirmPassword(storage: Storage, user: User, password: string, now: number): Promise<boolean> {
  const key = passwordChangeKey(user.id);
  const { max, windowMs } = LOGIN_LIMITS.passwordChange;
  await reserve(storage, [key], now);
  if ((await countIn(storage, key, windowMs, now)) > max) {
    await refuse(storage, [key], key, windowMs, now, "Too many wrong current passwords for this account.");
  }
  if (!(await passwordMatches(storage, user, password))) return false;
  await release(storage, [key], now);
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
