import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { ProjectKey } from "../../model";
import type { ProjectKeyRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { ProjectKeysTable } from "./schema";

const COLUMNS = ["id", "project_id", "label", "public_key", "is_active", "date_created", "rate_limit_count", "rate_limit_window"] as const;

const toKey = (row: Selectable<ProjectKeysTable>): ProjectKey => ({
  id: String(row.id),
  projectId: String(row.project_id),
  label: row.label,
  publicKey: row.public_key,
  // SQLite stores 0/1, PostgreSQL a boolean.
  isActive: row.is_active === true || row.is_active === 1,
  dateCreated: row.date_created,
  rateLimit: row.rate_limit_count !== null && row.rate_limit_window !== null ? { count: Number(row.rate_limit_count), window: Number(row.rate_limit_window) } : null,
});

export function appKeys(dialect: AppDialect): ProjectKeyRepo {
  const select = () => dialect.db.selectFrom("project_keys").select(COLUMNS);
  return {
    async create({ projectId, label }) {
      const row = await dialect.announcingKeys("key", (q) =>
        q
          .insertInto("project_keys")
          .values({ project_id: rowIdOf(projectId), label, public_key: randomBytes(16).toString("hex"), date_created: Date.now(), rate_limit_count: null, rate_limit_window: null })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      );
      return toKey(row);
    },
    async listByProject(projectId) {
      return (await select().where("project_id", "=", rowIdOf(projectId)).orderBy("id").execute()).map(toKey);
    },
    async getByPublicKey(publicKey) {
      const row = await select().where("public_key", "=", publicKey).executeTakeFirst();
      return row ? toKey(row) : null;
    },
    async update(projectId, publicKey, patch) {
      const values: { label?: string; is_active?: number; rate_limit_count?: number | null; rate_limit_window?: number | null } = {};
      if (patch.label !== undefined) values.label = patch.label;
      if (patch.isActive !== undefined) values.is_active = patch.isActive ? 1 : 0; // PostgreSQL reads '1'/'0' as a boolean too
      if (patch.rateLimit !== undefined) {
        values.rate_limit_count = patch.rateLimit?.count ?? null;
        values.rate_limit_window = patch.rateLimit?.window ?? null;
      }
      // Every process's key cache must forget the key at once: a disabled key is refused everywhere.
      if (Object.keys(values).length === 0) {
        return (await select().where("project_id", "=", rowIdOf(projectId)).where("public_key", "=", publicKey).executeTakeFirst().then((row) => (row ? toKey(row) : null)));
      }
      const row = await dialect.announcingKeys("key", (q) =>
        q
          .updateTable("project_keys")
          .set(values)
          .where("project_id", "=", rowIdOf(projectId))
          .where("public_key", "=", publicKey)
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
      return row ? toKey(row) : null;
    },
    async remove(projectId, publicKey) {
      const result = await dialect.announcingKeys("key", (q) =>
        q.deleteFrom("project_keys").where("project_id", "=", rowIdOf(projectId)).where("public_key", "=", publicKey).executeTakeFirst(),
      );
      return Number(result.numDeletedRows) > 0;
    },
  };
}
