import type { Selectable } from "kysely";
import type { Organization } from "../../model";
import type { OrganizationRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { OrganizationsTable } from "./schema";

const toOrganization = (row: Selectable<OrganizationsTable>): Organization => ({
  id: String(row.id),
  slug: row.slug,
  name: row.name,
  dateCreated: row.date_created,
});

export function appOrganizations({ db }: AppDialect): OrganizationRepo {
  const select = () => db.selectFrom("organizations").select(["id", "slug", "name", "date_created"]);
  return {
    async create({ slug, name }) {
      const row = await db
        .insertInto("organizations")
        .values({ slug, name, date_created: Date.now() })
        .returning(["id", "slug", "name", "date_created"])
        .executeTakeFirstOrThrow();
      return toOrganization(row);
    },
    async list() {
      return (await select().orderBy("id").execute()).map(toOrganization);
    },
    async getBySlug(slug) {
      const row = await select().where("slug", "=", slug).executeTakeFirst();
      return row ? toOrganization(row) : null;
    },
    async getById(id) {
      const row = await select().where("id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? toOrganization(row) : null;
    },
  };
}
