import type { OutcomeKind, OutcomeRepo } from "../types";
import type { Db } from "./db";

export function sqliteOutcomes(db: Db): OutcomeRepo {
  const totals = db.prepare<[number, number], { outcome: string; category: string; reason: string; quantity: number }>(
    `SELECT outcome, category, reason, SUM(quantity) AS quantity FROM outcomes
     WHERE project_id = ? AND hour >= ? GROUP BY outcome, category, reason ORDER BY outcome, category, reason`,
  );
  const hourly = db.prepare<[string, number, number], { project_id: number; hour: number; outcome: string; category: string; reason: string; quantity: number }>(
    `SELECT project_id, hour, outcome, category, reason, quantity FROM outcomes
     WHERE project_id IN (SELECT value FROM json_each(?)) AND hour >= ? AND hour < ?
     ORDER BY hour, project_id, outcome, category, reason`,
  );
  return {
    async hourly(query) {
      return hourly.all(JSON.stringify(query.projectIds.map(Number)), query.start, query.end).map((row) => ({
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
      return totals.all(Number(projectId), sinceHour).map((row) => ({
        outcome: row.outcome as OutcomeKind,
        category: row.category,
        reason: row.reason === "" ? null : row.reason,
        quantity: row.quantity,
      }));
    },
  };
}
