import type { Organization, OrganizationRepo } from "../types";
import type { PgDb } from "./db";

interface OrganizationRow {
  id: number;
  slug: string;
  name: string;
  date_created: number;
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: String(row.id),
  slug: row.slug,
  name: row.name,
  dateCreated: row.date_created,
});

const isId = (id: string) => /^\d{1,15}$/.test(id);

export function postgresOrganizations(db: PgDb): OrganizationRepo {
  return {
    async create({ slug, name }) {
      const [row] = await db.query<OrganizationRow>(
        "INSERT INTO organizations (slug, name, date_created) VALUES ($1, $2, $3) RETURNING *",
        [slug, name, Date.now()],
      );
      return toOrganization(row!);
    },
    async list() {
      return (await db.query<OrganizationRow>("SELECT * FROM organizations ORDER BY id")).map(toOrganization);
    },
    async getBySlug(slug) {
      const [row] = await db.query<OrganizationRow>("SELECT * FROM organizations WHERE slug = $1", [slug]);
      return row ? toOrganization(row) : null;
    },
    async getById(id) {
      if (!isId(id)) return null;
      const [row] = await db.query<OrganizationRow>("SELECT * FROM organizations WHERE id = $1", [Number(id)]);
      return row ? toOrganization(row) : null;
    },
  };
}
