import type { Selectable } from "kysely";
import type { Project } from "../../model";
import type { ProjectRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { ProjectsTable } from "./schema";

const COLUMNS = ["id", "organization_id", "slug", "name", "platform", "date_created"] as const;

const toProject = (row: Pick<Selectable<ProjectsTable>, (typeof COLUMNS)[number]>): Project => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  slug: row.slug,
  name: row.name,
  platform: row.platform,
  dateCreated: row.date_created,
});

export function appProjects(dialect: AppDialect): ProjectRepo {
  const select = () => dialect.db.selectFrom("projects").select(COLUMNS);
  return {
    async create({ organizationId, slug, name, platform }) {
      // The key caches hold projects too (ingest/keys.ts).
      const row = await dialect.announcingKeys("project", (q) =>
        q
          .insertInto("projects")
          .values({ organization_id: rowIdOf(organizationId), slug, name, platform, date_created: Date.now() })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      );
      return toProject(row);
    },
    async listByOrganization(organizationId) {
      return (await select().where("organization_id", "=", rowIdOf(organizationId)).orderBy("slug").execute()).map(toProject);
    },
    async getById(id) {
      const row = await select().where("id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? toProject(row) : null;
    },
    async getBySlug(organizationId, slug) {
      const row = await select().where("organization_id", "=", rowIdOf(organizationId)).where("slug", "=", slug).executeTakeFirst();
      return row ? toProject(row) : null;
    },
  };
}
