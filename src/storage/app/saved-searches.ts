import type { IssueSort, SavedSearch, SavedSearchVisibility } from "../../model";
import type { SavedSearchRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { SavedSearchesTable } from "./schema";

type Row = Omit<SavedSearchesTable, "id"> & { id: number };

const toSavedSearch = (row: Row): SavedSearch => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  ownerId: String(row.owner_id),
  visibility: row.visibility as SavedSearchVisibility,
  name: row.name,
  query: row.query,
  sort: row.sort as IssueSort,
  dateCreated: row.date_created,
});

const COLUMNS = ["id", "organization_id", "owner_id", "visibility", "name", "query", "sort", "date_created"] as const;

export function appSavedSearches(dialect: AppDialect): SavedSearchRepo {
  const { db } = dialect;
  return {
    async listVisible(organizationId, userId) {
      const rows = await db
        .selectFrom("saved_searches")
        .select(COLUMNS)
        .where("organization_id", "=", rowIdOf(organizationId))
        .where((where) => where.or([where("visibility", "=", "organization"), where("owner_id", "=", rowIdOf(userId))]))
        .orderBy("id")
        .execute();
      return rows.map(toSavedSearch);
    },
    async get(organizationId, id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const row = await db
        .selectFrom("saved_searches")
        .select(COLUMNS)
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("id", "=", Number(id))
        .executeTakeFirst();
      return row ? toSavedSearch(row) : null;
    },
    async create(input) {
      const row = await db
        .insertInto("saved_searches")
        .values({
          organization_id: rowIdOf(input.organizationId),
          owner_id: rowIdOf(input.ownerId),
          visibility: input.visibility,
          name: input.name,
          query: input.query,
          sort: input.sort,
          date_created: Date.now(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toSavedSearch(row);
    },
    async update(organizationId, id, changes) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const row = await db
        .updateTable("saved_searches")
        .set(changes)
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("id", "=", Number(id))
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toSavedSearch(row) : null;
    },
    async delete(organizationId, id) {
      if (!/^\d{1,15}$/.test(id)) return false;
      const result = await db
        .deleteFrom("saved_searches")
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("id", "=", Number(id))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
