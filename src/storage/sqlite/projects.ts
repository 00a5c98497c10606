import { PROJECT_COLUMNS, toProject, type ProjectRow } from "../rows";
import type { ProjectRepo } from "../types";
import type { Db } from "./db";

const columns = PROJECT_COLUMNS;

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
