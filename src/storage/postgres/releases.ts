import { releaseActivitySql, toReleaseActivity, type ReleaseActivityRow } from "../release-activity";
import type { ReleaseActivityRepo } from "../types";
import { idsOf, type PgDb } from "./db";

export function postgresReleaseActivity(db: PgDb): ReleaseActivityRepo {
  const text = releaseActivitySql("= ANY($1::bigint[])", (expression) => `FLOOR(${expression})::bigint`);
  return {
    async forProjects(projectIds) {
      if (projectIds.length === 0) return [];
      return (await db.query<ReleaseActivityRow & Record<string, unknown>>(text, [idsOf(projectIds)])).map(toReleaseActivity);
    },
  };
}
