import { releaseActivitySql, toReleaseActivity, type ReleaseActivityRow } from "../release-activity";
import type { ReleaseActivityRepo } from "../types";
import type { Db } from "./db";

export function sqliteReleaseActivity(db: Db): ReleaseActivityRepo {
  const statement = db.prepare<{ projects: string }, ReleaseActivityRow>(releaseActivitySql("IN (SELECT value FROM json_each(@projects))", (expression) => `CAST(${expression} AS INTEGER)`));
  return {
    async forProjects(projectIds) {
      if (projectIds.length === 0) return [];
      return statement.all({ projects: JSON.stringify(projectIds.map(Number)) }).map(toReleaseActivity);
    },
  };
}
