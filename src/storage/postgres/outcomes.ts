import type { OutcomeKind, OutcomeRepo } from "../types";
import type { PgDb } from "./db";

interface OutcomeRow {
  project_id: number;
  hour: number;
  outcome: string;
  category: string;
  reason: string;
  quantity: number;
}

const ids = (projectIds: string[]) => projectIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number);

export function postgresOutcomes(db: PgDb): OutcomeRepo {
  return {
    async hourly(query) {
      const rows = await db.query<OutcomeRow>(
        `SELECT project_id, hour, outcome, category, reason, quantity FROM outcomes
         WHERE project_id = ANY($1::bigint[]) AND hour >= $2 AND hour < $3
         ORDER BY hour, project_id, outcome COLLATE "C", category COLLATE "C", reason COLLATE "C"`,
        [ids(query.projectIds), query.start, query.end],
      );
      return rows.map((row) => ({
        projectId: String(row.project_id),
        hour: row.hour,
        outcome: row.outcome as OutcomeKind,
        category: row.category,
        reason: row.reason === "" ? null : row.reason,
        quantity: row.quantity,
      }));
    },
    async totals(projectId, sinceMs) {
      const sinceHour = Math.floor(sinceMs / 3_600_000) * 3_600_000;
      const rows = await db.query<Omit<OutcomeRow, "project_id" | "hour">>(
        `SELECT outcome, category, reason, SUM(quantity) AS quantity FROM outcomes WHERE project_id = $1 AND hour >= $2
         GROUP BY outcome, category, reason ORDER BY outcome COLLATE "C", category COLLATE "C", reason COLLATE "C"`,
        [ids([projectId])[0] ?? -1, sinceHour],
      );
      return rows.map((row) => ({
        outcome: row.outcome as OutcomeKind,
        category: row.category,
        reason: row.reason === "" ? null : row.reason,
        quantity: row.quantity,
      }));
    },
  };
}
