import { toOutcomeHour, toOutcomeTotal, type OutcomeRow } from "../rows";
import type { OutcomeRepo } from "../types";
import { idsOf, type PgDb } from "./db";

export function postgresOutcomes(db: PgDb): OutcomeRepo {
  return {
    async hourly(query) {
      const rows = await db.query<OutcomeRow>(
        `SELECT project_id, hour, outcome, category, reason, quantity FROM outcomes
         WHERE project_id = ANY($1::bigint[]) AND hour >= $2 AND hour < $3
         ORDER BY hour, project_id, outcome COLLATE "C", category COLLATE "C", reason COLLATE "C"`,
        [idsOf(query.projectIds), query.start, query.end],
      );
      return rows.map(toOutcomeHour);
    },
    async totals(projectId, sinceMs) {
      const sinceHour = Math.floor(sinceMs / 3_600_000) * 3_600_000;
      const rows = await db.query<Omit<OutcomeRow, "project_id" | "hour">>(
        `SELECT outcome, category, reason, SUM(quantity) AS quantity FROM outcomes WHERE project_id = $1 AND hour >= $2
         GROUP BY outcome, category, reason ORDER BY outcome COLLATE "C", category COLLATE "C", reason COLLATE "C"`,
        [idsOf([projectId])[0] ?? -1, sinceHour],
      );
      return rows.map(toOutcomeTotal);
    },
  };
}
