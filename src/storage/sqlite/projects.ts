import type { Project, ProjectRepo } from "../types";
import type { Db } from "./db";

interface ProjectRow {
  id: number;
  organization_id: number;
  slug: string;
  name: string;
  platform: string | null;
  date_created: number;
}

const toProject = (row: ProjectRow): Project => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  slug: row.slug,
  name: row.name,
  platform: row.platform,
  dateCreated: row.date_created,
});

const columns = "id, organization_id, slug, name, platform, date_created";

export function sqliteProjects(db: Db): ProjectRepo {
  const insert = db.prepare<[number, string, string, string | null, number], ProjectRow>(
    `INSERT INTO projects (organization_id, slug, name, platform, date_created) VALUES (?, ?, ?, ?, ?) RETURNING ${columns}`,
  );
  const byOrganization = db.prepare<[number], ProjectRow>(
    `SELECT ${columns} FROM projects WHERE organization_id = ? ORDER BY slug`,
  );
  const byId = db.prepare<[number], ProjectRow>(`SELECT ${columns} FROM projects WHERE id = ?`);
  const bySlug = db.prepare<[number, string], ProjectRow>(
    `SELECT ${columns} FROM projects WHERE organization_id = ? AND slug = ?`,
  );
  return {
    async create({ organizationId, slug, name, platform }) {
      return toProject(insert.get(Number(organizationId), slug, name, platform, Date.now())!);
    },
    async listByOrganization(organizationId) {
      return byOrganization.all(Number(organizationId)).map(toProject);
    },
    async getById(id) {
      const row = /^\d+$/.test(id) ? byId.get(Number(id)) : undefined;
      return row ? toProject(row) : null;
    },
    async getBySlug(organizationId, slug) {
      const row = bySlug.get(Number(organizationId), slug);
      return row ? toProject(row) : null;
    },
  };
}
