import { toOutcomeHour, toOutcomeTotal, type OutcomeRow } from "../rows";
import type { OutcomeRepo } from "../types";
import type { Db } from "./db";

export function sqliteOutcomes(db: Db): OutcomeRepo {
  const totals = db.prepare<[number, number], Omit<OutcomeRow, "project_id" | "hour">>(
    `SELECT outcome, category, reason, SUM(quantity) AS quantity FROM outcomes
     WHERE project_id = ? AND hour >= ? GROUP BY outcome, category, reason ORDER BY outcome, category, reason`,
  );
  const hourly = db.prepare<[string, number, number], OutcomeRow>(
    `SELECT project_id, hour, outcome, category, reason, quantity FROM outcomes
     WHERE project_id IN (SELECT value FROM json_each(?)) AND hour >= ? AND hour < ?
     ORDER BY hour, project_id, outcome, category, reason`,
  );
  return {
    async hourly(query) {
      return hourly.all(JSON.stringify(query.projectIds.map(Number)), query.start, query.end).map(toOutcomeHour);
    },
    async totals(projectId, sinceMs) {
      const sinceHour = Math.floor(sinceMs / 3_600_000) * 3_600_000;
      return totals.all(Number(projectId), sinceHour).map(toOutcomeTotal);
    },
  };
}
