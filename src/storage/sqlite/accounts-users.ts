import {
  API_TOKEN_COLUMNS,
  LOGIN_SESSION_COLUMNS,
  USER_COLUMNS,
  normalEmail,
  rethrowConstraint,
  rowIdOf,
  toApiToken,
  toLoginSession,
  toUser,
  type ApiTokenRow,
  type LoginSessionRow,
  type UserRow,
} from "../account-rows";
import type { ApiTokenRepo, LoginSessionRepo, LoginThrottleRepo, UserRepo } from "../accounts-types";
import { constraintKind, type Db } from "./db";

type Id = number | null;

export function sqliteUsers(db: Db): UserRepo {
  const count = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users");
  const insert = db.prepare<[string, string, string, number], UserRow>(
    `INSERT INTO users (email, name, password_hash, date_created) VALUES (?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
  );
  // One statement, and SQLite has one writer: the check and the insert cannot interleave with another.
  const insertFirst = db.prepare<[string, string, string, number], UserRow>(
    `INSERT INTO users (email, name, password_hash, date_created) SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM users) RETURNING ${USER_COLUMNS}`,
  );
  const byId = db.prepare<[Id], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
  const byEmail = db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`);
  const all = db.prepare<[], UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`);
  const passwordOf = db.prepare<[Id], { password_hash: string }>("SELECT password_hash FROM users WHERE id = ?");
  const setPassword = db.prepare<[string, Id]>("UPDATE users SET password_hash = ? WHERE id = ?");
  const setLastLogin = db.prepare<[number, Id]>("UPDATE users SET last_login = ? WHERE id = ?");
  return {
    async count() {
      return count.get()!.n;
    },
    async create({ email, name, passwordHash }) {
      try {
        return toUser(insert.get(normalEmail(email), name, passwordHash, Date.now())!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: `a user with the email ${normalEmail(email)} already exists` });
      }
    },
    async createFirst({ email, name, passwordHash }) {
      const row = insertFirst.get(normalEmail(email), name, passwordHash, Date.now());
      return row ? toUser(row) : null;
    },
    async getById(id) {
      const row = byId.get(rowIdOf(id));
      return row ? toUser(row) : null;
    },
    async getByEmail(email) {
      const row = byEmail.get(normalEmail(email));
      return row ? toUser(row) : null;
    },
    async list() {
      return all.all().map(toUser);
    },
    async passwordHashOf(userId) {
      return passwordOf.get(rowIdOf(userId))?.password_hash ?? null;
    },
    async setPasswordHash(userId, passwordHash) {
      setPassword.run(passwordHash, rowIdOf(userId));
    },
    async recordLogin(userId, at) {
      setLastLogin.run(at, rowIdOf(userId));
    },
  };
}

export function sqliteLoginSessions(db: Db): LoginSessionRepo {
  const insert = db.prepare<[Id, string, string, number, number], LoginSessionRow>(
    `INSERT INTO login_sessions (user_id, token_hash, csrf_token, date_created, expires_at) VALUES (?, ?, ?, ?, ?)
     RETURNING ${LOGIN_SESSION_COLUMNS}`,
  );
  const valid = db.prepare<[string, number], LoginSessionRow>(
    `SELECT ${LOGIN_SESSION_COLUMNS} FROM login_sessions WHERE token_hash = ? AND expires_at > ?`,
  );
  const remove = db.prepare<[Id]>("DELETE FROM login_sessions WHERE id = ?");
  const removeForUser = db.prepare<[Id, Id]>("DELETE FROM login_sessions WHERE user_id = ? AND id IS NOT ?");
  const removeExpired = db.prepare<[number]>("DELETE FROM login_sessions WHERE expires_at <= ?");
  return {
    async create({ userId, tokenHash, csrfToken, expiresAt }) {
      try {
        return toLoginSession(insert.get(rowIdOf(userId), tokenHash, csrfToken, Date.now(), expiresAt)!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: "a session with this token already exists", missing: `no user ${userId}` });
      }
    },
    async getValid(tokenHash, now) {
      const row = valid.get(tokenHash, now);
      return row ? toLoginSession(row) : null;
    },
    async delete(id) {
      remove.run(rowIdOf(id));
    },
    async deleteForUser(userId, keepId) {
      return removeForUser.run(rowIdOf(userId), keepId === undefined ? null : rowIdOf(keepId)).changes;
    },
    async deleteExpired(now) {
      return removeExpired.run(now).changes;
    },
  };
}

export function sqliteApiTokens(db: Db): ApiTokenRepo {
  const insert = db.prepare<[Id, string, string, string, string, number], ApiTokenRow>(
    `INSERT INTO api_tokens (user_id, name, token_hash, token_last_chars, scopes, date_created) VALUES (?, ?, ?, ?, ?, ?)
     RETURNING ${API_TOKEN_COLUMNS}`,
  );
  const byHash = db.prepare<[string], ApiTokenRow>(`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = ?`);
  const forUser = db.prepare<[Id], ApiTokenRow>(`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE user_id = ? ORDER BY id`);
  const revoke = db.prepare<[Id, Id]>("DELETE FROM api_tokens WHERE id = ? AND user_id = ?");
  const setLastUsed = db.prepare<[number, Id]>("UPDATE api_tokens SET last_used = ? WHERE id = ?");
  return {
    async create({ userId, name, tokenHash, tokenLastChars, scopes }) {
      try {
        return toApiToken(insert.get(rowIdOf(userId), name, tokenHash, tokenLastChars, JSON.stringify(scopes), Date.now())!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: "a token with this value already exists", missing: `no user ${userId}` });
      }
    },
    async getByHash(tokenHash) {
      const row = byHash.get(tokenHash);
      return row ? toApiToken(row) : null;
    },
    async listForUser(userId) {
      return forUser.all(rowIdOf(userId)).map(toApiToken);
    },
    async revoke(userId, tokenId) {
      return revoke.run(rowIdOf(tokenId), rowIdOf(userId)).changes > 0;
    },
    async recordUse(tokenId, at) {
      setLastUsed.run(at, rowIdOf(tokenId));
    },
  };
}

export function sqliteLoginThrottle(db: Db): LoginThrottleRepo {
  const insert = db.prepare<[string, number]>("INSERT INTO login_failures (key, at) VALUES (?, ?)");
  const since = db.prepare<[string, number], { n: number; oldest: number | null }>(
    "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM login_failures WHERE key = ? AND at >= ?",
  );
  const clear = db.prepare<[string]>("DELETE FROM login_failures WHERE key = ?");
  const removeBefore = db.prepare<[number]>("DELETE FROM login_failures WHERE at < ?");
  const removeOne = db.prepare<[string, number]>(
    "DELETE FROM login_failures WHERE rowid = (SELECT rowid FROM login_failures WHERE key = ? AND at = ? LIMIT 1)",
  );
  return {
    async recordFailure(key, at) {
      insert.run(key, at);
    },
    async countSince(key, from) {
      return since.get(key, from)!.n;
    },
    async oldestSince(key, from) {
      return since.get(key, from)!.oldest;
    },
    async clear(key) {
      clear.run(key);
    },
    async forgetOne(key, at) {
      removeOne.run(key, at);
    },
    async deleteBefore(at) {
      return removeBefore.run(at).changes;
    },
  };
}
