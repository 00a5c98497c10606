import { toOrganization, type OrganizationRow } from "../rows";
import type { OrganizationRepo } from "../types";
import type { Db } from "./db";

export function sqliteOrganizations(db: Db): OrganizationRepo {
  const insert = db.prepare<[string, string, number], OrganizationRow>(
    "INSERT INTO organizations (slug, name, date_created) VALUES (?, ?, ?) RETURNING *",
  );
  const all = db.prepare<[], OrganizationRow>("SELECT * FROM organizations ORDER BY id");
  const bySlug = db.prepare<[string], OrganizationRow>("SELECT * FROM organizations WHERE slug = ?");
  const byId = db.prepare<[number], OrganizationRow>("SELECT * FROM organizations WHERE id = ?");
  return {
    async create({ slug, name }) {
      return toOrganization(insert.get(slug, name, Date.now())!);
    },
    async list() {
      return all.all().map(toOrganization);
    },
    async getBySlug(slug) {
      const row = bySlug.get(slug);
      return row ? toOrganization(row) : null;
    },
    async getById(id) {
      const row = byId.get(Number(id));
      return row ? toOrganization(row) : null;
    },
  };
}
