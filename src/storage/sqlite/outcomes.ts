import type { OutcomeKind, OutcomeRepo } from "../types";
import type { Db } from "./db";

export function sqliteOutcomes(db: Db): OutcomeRepo {
  const totals = db.prepare<[number, number], { outcome: string; category: string; reason: string; quantity: number }>(
    `SELECT outcome, category, reason, SUM(quantity) AS quantity FROM outcomes
     WHERE project_id = ? AND hour >= ? GROUP BY outcome, category, reason ORDER BY outcome, category, reason`,
  );
  return {
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
