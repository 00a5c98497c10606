import { randomBytes } from "node:crypto";
import type { ProjectKey, ProjectKeyRepo } from "../types";
import type { Db } from "./db";

interface KeyRow {
  id: number;
  project_id: number;
  label: string;
  public_key: string;
  is_active: number;
  date_created: number;
}

const toKey = (row: KeyRow): ProjectKey => ({
  id: String(row.id),
  projectId: String(row.project_id),
  label: row.label,
  publicKey: row.public_key,
  isActive: row.is_active === 1,
  dateCreated: row.date_created,
});

export function sqliteKeys(db: Db): ProjectKeyRepo {
  const insert = db.prepare<[number, string, string, number], KeyRow>(
    "INSERT INTO project_keys (project_id, label, public_key, date_created) VALUES (?, ?, ?, ?) RETURNING *",
  );
  const byProject = db.prepare<[number], KeyRow>("SELECT * FROM project_keys WHERE project_id = ? ORDER BY id");
  const byPublicKey = db.prepare<[string], KeyRow>("SELECT * FROM project_keys WHERE public_key = ?");
  return {
    async create({ projectId, label }) {
      return toKey(insert.get(Number(projectId), label, randomBytes(16).toString("hex"), Date.now())!);
    },
    async listByProject(projectId) {
      return byProject.all(Number(projectId)).map(toKey);
    },
    async getByPublicKey(publicKey) {
      const row = byPublicKey.get(publicKey);
      return row ? toKey(row) : null;
    },
  };
}
