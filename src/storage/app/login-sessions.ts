import type { Selectable } from "kysely";
import type { LoginSession } from "../../model";
import type { LoginSessionRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { LoginSessionsTable } from "./schema";

const COLUMNS = ["id", "user_id", "csrf_token", "date_created", "expires_at"] as const;

const toLoginSession = (row: Omit<Selectable<LoginSessionsTable>, "token_hash">): LoginSession => ({
  id: String(row.id),
  userId: String(row.user_id),
  csrfToken: row.csrf_token,
  dateCreated: row.date_created,
  expiresAt: row.expires_at,
});

export function appLoginSessions(dialect: AppDialect): LoginSessionRepo {
  const { db } = dialect;
  return {
    async create({ userId, tokenHash, csrfToken, expiresAt }) {
      try {
        const row = await db
          .insertInto("login_sessions")
          .values({ user_id: rowIdOf(userId), token_hash: tokenHash, csrf_token: csrfToken, date_created: Date.now(), expires_at: expiresAt })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toLoginSession(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: "a session with this token already exists", missing: `no user ${userId}` });
      }
    },
    async getValid(tokenHash, now) {
      const row = await db.selectFrom("login_sessions").select(COLUMNS).where("token_hash", "=", tokenHash).where("expires_at", ">", now).executeTakeFirst();
      return row ? toLoginSession(row) : null;
    },
    async delete(id) {
      await db.deleteFrom("login_sessions").where("id", "=", rowIdOf(id)).execute();
    },
    async deleteForUser(userId, keepId) {
      let query = db.deleteFrom("login_sessions").where("user_id", "=", rowIdOf(userId));
      if (keepId !== undefined) query = query.where("id", "<>", rowIdOf(keepId));
      return Number((await query.executeTakeFirst()).numDeletedRows);
    },
    async deleteExpired(now) {
      return Number((await db.deleteFrom("login_sessions").where("expires_at", "<=", now).executeTakeFirst()).numDeletedRows);
    },
  };
}
