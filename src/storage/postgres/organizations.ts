import { toOrganization, type OrganizationRow } from "../rows";
import type { OrganizationRepo } from "../types";
import { isId, type PgDb } from "./db";


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
