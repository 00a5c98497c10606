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
import { affected, constraintKind, type PgDb } from "./db";

export function postgresUsers(db: PgDb): UserRepo {
  return {
    async count() {
      const [row] = await db.query<{ n: number }>("SELECT COUNT(*) AS n FROM users");
      return row?.n ?? 0;
    },
    async create({ email, name, passwordHash }) {
      try {
        const [row] = await db.query<UserRow>(
          `INSERT INTO users (email, name, password_hash, date_created) VALUES ($1, $2, $3, $4) RETURNING ${USER_COLUMNS}`,
          [normalEmail(email), name, passwordHash, Date.now()],
        );
        return toUser(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: `a user with the email ${normalEmail(email)} already exists` });
      }
    },
    async createFirst({ email, name, passwordHash }) {
      // Under READ COMMITTED two "insert if none" statements could both see an empty table: the lock
      // (which conflicts with itself, not with readers) makes the second wait and then see the first.
      return db.transaction(async (tx) => {
        await tx.query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE");
        const [row] = await tx.query<UserRow>(
          `INSERT INTO users (email, name, password_hash, date_created) SELECT $1, $2, $3, $4
           WHERE NOT EXISTS (SELECT 1 FROM users) RETURNING ${USER_COLUMNS}`,
          [normalEmail(email), name, passwordHash, Date.now()],
        );
        return row ? toUser(row) : null;
      });
    },
    async getById(id) {
      const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [rowIdOf(id)]);
      return row ? toUser(row) : null;
    },
    async getByEmail(email) {
      const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [normalEmail(email)]);
      return row ? toUser(row) : null;
    },
    async list() {
      return (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`)).map(toUser);
    },
    async passwordHashOf(userId) {
      const [row] = await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [rowIdOf(userId)]);
      return row?.password_hash ?? null;
    },
    async setPasswordHash(userId, passwordHash) {
      await db.query("UPDATE users SET password_hash = $1 WHERE id = $2", [passwordHash, rowIdOf(userId)]);
    },
    async recordLogin(userId, at) {
      await db.query("UPDATE users SET last_login = $1 WHERE id = $2", [at, rowIdOf(userId)]);
    },
  };
}

export function postgresLoginSessions(db: PgDb): LoginSessionRepo {
  return {
    async create({ userId, tokenHash, csrfToken, expiresAt }) {
      try {
        const [row] = await db.query<LoginSessionRow>(
          `INSERT INTO login_sessions (user_id, token_hash, csrf_token, date_created, expires_at) VALUES ($1, $2, $3, $4, $5)
           RETURNING ${LOGIN_SESSION_COLUMNS}`,
          [rowIdOf(userId), tokenHash, csrfToken, Date.now(), expiresAt],
        );
        return toLoginSession(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: "a session with this token already exists", missing: `no user ${userId}` });
      }
    },
    async getValid(tokenHash, now) {
      const [row] = await db.query<LoginSessionRow>(
        `SELECT ${LOGIN_SESSION_COLUMNS} FROM login_sessions WHERE token_hash = $1 AND expires_at > $2`,
        [tokenHash, now],
      );
      return row ? toLoginSession(row) : null;
    },
    async delete(id) {
      await db.query("DELETE FROM login_sessions WHERE id = $1", [rowIdOf(id)]);
    },
    async deleteForUser(userId, keepId) {
      const keep = keepId === undefined ? null : rowIdOf(keepId);
      return affected(db, "DELETE FROM login_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2::bigint", [rowIdOf(userId), keep]);
    },
    async deleteExpired(now) {
      return affected(db, "DELETE FROM login_sessions WHERE expires_at <= $1", [now]);
    },
  };
}

export function postgresApiTokens(db: PgDb): ApiTokenRepo {
  return {
    async create({ userId, name, tokenHash, tokenLastChars, scopes }) {
      try {
        const [row] = await db.query<ApiTokenRow>(
          `INSERT INTO api_tokens (user_id, name, token_hash, token_last_chars, scopes, date_created) VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING ${API_TOKEN_COLUMNS}`,
          [rowIdOf(userId), name, tokenHash, tokenLastChars, JSON.stringify(scopes), Date.now()],
        );
        return toApiToken(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { unique: "a token with this value already exists", missing: `no user ${userId}` });
      }
    },
    async getByHash(tokenHash) {
      const [row] = await db.query<ApiTokenRow>(`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = $1`, [tokenHash]);
      return row ? toApiToken(row) : null;
    },
    async listForUser(userId) {
      const rows = await db.query<ApiTokenRow>(`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY id`, [rowIdOf(userId)]);
      return rows.map(toApiToken);
    },
    async revoke(userId, tokenId) {
      return (await affected(db, "DELETE FROM api_tokens WHERE id = $1 AND user_id = $2", [rowIdOf(tokenId), rowIdOf(userId)])) > 0;
    },
    async recordUse(tokenId, at) {
      await db.query("UPDATE api_tokens SET last_used = $1 WHERE id = $2", [at, rowIdOf(tokenId)]);
    },
  };
}

export function postgresLoginThrottle(db: PgDb): LoginThrottleRepo {
  const since = async (key: string, from: number) => {
    const [row] = await db.query<{ n: number; oldest: number | null }>(
      "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM login_failures WHERE key = $1 AND at >= $2",
      [key, from],
    );
    return row!;
  };
  return {
    async recordFailure(key, at) {
      await db.query("INSERT INTO login_failures (key, at) VALUES ($1, $2)", [key, at]);
    },
    async countSince(key, from) {
      return (await since(key, from)).n;
    },
    async oldestSince(key, from) {
      return (await since(key, from)).oldest;
    },
    async clear(key) {
      await db.query("DELETE FROM login_failures WHERE key = $1", [key]);
    },
    async forgetOne(key, at) {
      await db.query(
        "DELETE FROM login_failures WHERE ctid = (SELECT ctid FROM login_failures WHERE key = $1 AND at = $2 LIMIT 1)",
        [key, at],
      );
    },
    async deleteBefore(at) {
      return affected(db, "DELETE FROM login_failures WHERE at < $1", [at]);
    },
  };
}
