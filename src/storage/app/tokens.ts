import type { Selectable } from "kysely";
import type { Scope } from "../../auth/scopes";
import type { ApiToken } from "../../model";
import type { ApiTokenRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { ApiTokensTable } from "./schema";

const COLUMNS = ["id", "user_id", "name", "token_last_chars", "scopes", "date_created", "last_used"] as const;

const toApiToken = (row: Omit<Selectable<ApiTokensTable>, "token_hash">): ApiToken => ({
  id: String(row.id),
  userId: String(row.user_id),
  name: row.name,
  tokenLastChars: row.token_last_chars,
  scopes: JSON.parse(row.scopes) as Scope[],
  dateCreated: row.date_created,
  lastUsed: row.last_used,
});

export function appApiTokens(dialect: AppDialect): ApiTokenRepo {
  const { db } = dialect;
  const select = () => db.selectFrom("api_tokens").select(COLUMNS);
  return {
    async create({ userId, name, tokenHash, tokenLastChars, scopes }) {
      try {
        const row = await db
          .insertInto("api_tokens")
          .values({
            user_id: rowIdOf(userId), name, token_hash: tokenHash, token_last_chars: tokenLastChars,
            scopes: JSON.stringify(scopes), date_created: Date.now(),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toApiToken(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: "a token with this value already exists", missing: `no user ${userId}` });
      }
    },
    async getByHash(tokenHash) {
      const row = await select().where("token_hash", "=", tokenHash).executeTakeFirst();
      return row ? toApiToken(row) : null;
    },
    async listForUser(userId) {
      return (await select().where("user_id", "=", rowIdOf(userId)).orderBy("id").execute()).map(toApiToken);
    },
    async revoke(userId, tokenId) {
      const result = await db.deleteFrom("api_tokens").where("id", "=", rowIdOf(tokenId)).where("user_id", "=", rowIdOf(userId)).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async recordUse(tokenId, at) {
      await db.updateTable("api_tokens").set({ last_used: at }).where("id", "=", rowIdOf(tokenId)).execute();
    },
  };
}
