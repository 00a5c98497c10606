/**
 * Implicit releases, derived at read time from what ingest already stores, so the hot ingest path
 * writes nothing extra: error events (issue_tags' `release` values with first/last seen), new
 * issues (issues.first_release), sessions (session_counts' hours) and transactions. The same SQL
 * on both engines apart from how the project list is bound and times rounded.
 */
import type { ReleaseActivity } from "../model";

/**
 * `inProjects`: how the engine binds the project list; `wholeMs`: how it turns fractional ms into
 * whole ms (SQLite's CAST truncates, PostgreSQL's rounds, so PostgreSQL floors first).
 */
export const releaseActivitySql = (inProjects: string, wholeMs: (expression: string) => string): string => `
SELECT project_id, version, MIN(first_event) AS first_event, MAX(last_event) AS last_event, SUM(new_issues) AS new_issues FROM (
  SELECT i.project_id, t.value AS version, MIN(t.first_seen) AS first_event, MAX(t.last_seen) AS last_event, 0 AS new_issues
    FROM issue_tags t JOIN issues i ON i.id = t.issue_id
   WHERE t.key = 'release' AND i.project_id ${inProjects}
   GROUP BY i.project_id, t.value
  UNION ALL
  SELECT project_id, first_release, NULL, NULL, COUNT(*)
    FROM issues WHERE first_release IS NOT NULL AND first_release <> '' AND project_id ${inProjects}
   GROUP BY project_id, first_release
  UNION ALL
  SELECT project_id, release, MIN(hour), MAX(hour), 0
    FROM session_counts WHERE release <> '' AND project_id ${inProjects}
   GROUP BY project_id, release
  UNION ALL
  SELECT project_id, release, ${wholeMs("MIN(start_ts)")}, ${wholeMs("MAX(end_ts)")}, 0
    FROM transactions WHERE release IS NOT NULL AND release <> '' AND project_id ${inProjects}
   GROUP BY project_id, release
) AS activity
GROUP BY project_id, version
ORDER BY project_id, version`;

export interface ReleaseActivityRow {
  project_id: number | string;
  version: string;
  first_event: number | string | null;
  last_event: number | string | null;
  new_issues: number | string | null;
}

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

export const toReleaseActivity = (row: ReleaseActivityRow): ReleaseActivity => ({
  projectId: String(row.project_id),
  version: row.version,
  firstEvent: numberOrNull(row.first_event),
  lastEvent: numberOrNull(row.last_event),
  newIssues: Number(row.new_issues ?? 0),
});
