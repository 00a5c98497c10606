import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { ProjectKey } from "../../model";
import type { ProjectKeyRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { ProjectKeysTable } from "./schema";

const COLUMNS = ["id", "project_id", "label", "public_key", "is_active", "date_created"] as const;

const toKey = (row: Selectable<ProjectKeysTable>): ProjectKey => ({
  id: String(row.id),
  projectId: String(row.project_id),
  label: row.label,
  publicKey: row.public_key,
  // SQLite stores 0/1, PostgreSQL a boolean.
  isActive: row.is_active === true || row.is_active === 1,
  dateCreated: row.date_created,
});

export function appKeys(dialect: AppDialect): ProjectKeyRepo {
  const select = () => dialect.db.selectFrom("project_keys").select(COLUMNS);
  return {
    async create({ projectId, label }) {
      const row = await dialect.announcingKeys("key", (q) =>
        q
          .insertInto("project_keys")
          .values({ project_id: rowIdOf(projectId), label, public_key: randomBytes(16).toString("hex"), date_created: Date.now() })
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
  };
}
