import { PROJECT_COLUMNS, toProject, type ProjectRow } from "../rows";
import type { ProjectRepo } from "../types";
import { isId, type PgDb } from "./db";
import { KEYS_CHANNEL } from "./keys";

const columns = PROJECT_COLUMNS;

export function postgresProjects(db: PgDb): ProjectRepo {
  return {
    async create({ organizationId, slug, name, platform }) {
      // The key caches of every process hold projects too: tell them (delivered on commit).
      const [row] = await db.query<ProjectRow>(
        `WITH created AS (
           INSERT INTO projects (organization_id, slug, name, platform, date_created) VALUES ($1, $2, $3, $4, $5) RETURNING ${columns}
         ) SELECT created.*, pg_notify('${KEYS_CHANNEL}', 'project') FROM created`,
        [Number(organizationId), slug, name, platform, Date.now()],
      );
      return toProject(row!);
    },
    async listByOrganization(organizationId) {
      if (!isId(organizationId)) return [];
      const rows = await db.query<ProjectRow>(`SELECT ${columns} FROM projects WHERE organization_id = $1 ORDER BY slug`, [Number(organizationId)]);
      return rows.map(toProject);
    },
    async getById(id) {
      if (!isId(id)) return null;
      const [row] = await db.query<ProjectRow>(`SELECT ${columns} FROM projects WHERE id = $1`, [Number(id)]);
      return row ? toProject(row) : null;
    },
    async getBySlug(organizationId, slug) {
      if (!isId(organizationId)) return null;
      const [row] = await db.query<ProjectRow>(`SELECT ${columns} FROM projects WHERE organization_id = $1 AND slug = $2`, [Number(organizationId), slug]);
      return row ? toProject(row) : null;
    },
  };
}
