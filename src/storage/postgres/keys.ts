import { randomBytes } from "node:crypto";
import { toKey, type KeyRow } from "../rows";
import type { ProjectKeyRepo } from "../types";
import { isId, type PgDb } from "./db";

/** NOTIFY channel on which key and project changes reach every process's key cache (listen.ts). */
export const KEYS_CHANNEL = "periscope_keys";

const columns = "id, project_id, label, public_key, is_active, date_created";

export function postgresKeys(db: PgDb): ProjectKeyRepo {
  return {
    async create({ projectId, label }) {
      const [row] = await db.query<KeyRow>(
        `WITH created AS (
           INSERT INTO project_keys (project_id, label, public_key, date_created) VALUES ($1, $2, $3, $4) RETURNING ${columns}
         ) SELECT created.*, pg_notify('${KEYS_CHANNEL}', 'key') FROM created`,
        [Number(projectId), label, randomBytes(16).toString("hex"), Date.now()],
      );
      return toKey(row!);
    },
    async listByProject(projectId) {
      if (!isId(projectId)) return [];
      return (await db.query<KeyRow>(`SELECT ${columns} FROM project_keys WHERE project_id = $1 ORDER BY id`, [Number(projectId)])).map(toKey);
    },
    async getByPublicKey(publicKey) {
      const [row] = await db.query<KeyRow>(`SELECT ${columns} FROM project_keys WHERE public_key = $1`, [publicKey]);
      return row ? toKey(row) : null;
    },
  };
}
