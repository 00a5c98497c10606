import { randomBytes } from "node:crypto";
import { toKey, type KeyRow } from "../rows";
import type { ProjectKeyRepo } from "../types";
import type { Db } from "./db";

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
