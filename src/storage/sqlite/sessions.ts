import { toSessionUpdate, type SessionStateRow } from "../rows";
import { mergeSessionStats, percentileCont, SESSION_GROUP_COLUMNS, type SessionStatsSqlRow } from "../session-stats";
import { type SessionDurationRow, type SessionRepo, type SessionStatsQuery, type SessionStatsRow } from "../types";
import type { Db } from "./db";


/**
 * Release health from the hourly counters. Sessions are summed; users are distinct `did`s, each
 * counted once per group in the most severe health it reached there (in the interval for series,
 * over the whole window for totals).
 */
export function sqliteSessions(db: Db): SessionRepo {
  const byId = db.prepare<[number, string], SessionStateRow>("SELECT * FROM session_states WHERE project_id = ? AND sid = ?");

  function filters(query: SessionStatsQuery): { where: string; params: (string | number)[] } {
    const where = ["project_id IN (SELECT value FROM json_each(?))", "hour >= ?", "hour < ?"];
    const params: (string | number)[] = [JSON.stringify(query.projectIds.map(Number)), query.start, query.end];
    if (query.releases) {
      where.push("release IN (SELECT value FROM json_each(?))");
      params.push(JSON.stringify(query.releases));
    }
    if (query.environments) {
      where.push("environment IN (SELECT value FROM json_each(?))");
      params.push(JSON.stringify(query.environments));
    }
    return { where: where.join(" AND "), params };
  }

  function run(query: SessionStatsQuery, series: boolean, users: boolean): SessionStatsSqlRow[] {
    const dims = query.groupBy.map((key) => SESSION_GROUP_COLUMNS[key]);
    // Bound JS numbers are REALs in SQLite: truncate to the interval's index (hour >= start, so it is the floor).
    const slot = series ? "CAST((hour - ?) / ? AS INTEGER)" : "NULL";
    const slotParams = series ? [query.start, query.interval] : [];
    const { where, params } = filters(query);
    const keys = [...dims, "slot"].join(", ");
    const sql = users
      ? `SELECT ${keys}, severity AS health, COUNT(*) AS sessions FROM (
           SELECT ${[...dims, `${slot} AS slot`].join(", ")}, did, MAX(severity) AS severity
           FROM session_users WHERE ${where} GROUP BY ${keys}, did)
         GROUP BY ${keys}, severity`
      : `SELECT ${[...dims, `${slot} AS slot`].join(", ")}, health, SUM(quantity) AS sessions
         FROM session_counts WHERE ${where} GROUP BY ${keys}, health`;
    return db.prepare<(string | number)[], SessionStatsSqlRow>(sql).all(...slotParams, ...params);
  }

  const rows = (query: SessionStatsQuery, series: boolean): SessionStatsRow[] =>
    mergeSessionStats(run(query, series, false), run(query, series, true));

  return {
    async get(projectId, sid) {
      const row = byId.get(Number(projectId), sid);
      return row ? toSessionUpdate(row) : null;
    },
    async stats(query) {
      if (query.projectIds.length === 0) return [];
      return [...rows(query, false), ...rows(query, true)];
    },
    // SQLite has no percentile function: the durations come sorted and the quantiles are taken here
    // with PostgreSQL's percentile_cont rule, so both engines give the same figures.
    async durations(query) {
      if (query.projectIds.length === 0) return [];
      const where = ["project_id IN (SELECT value FROM json_each(?))", "started >= ?", "started < ?", "init = 1", "status = 'exited'", "duration IS NOT NULL"];
      const params: (string | number)[] = [JSON.stringify(query.projectIds.map(Number)), query.start, query.end];
      if (query.releases) {
        where.push("release IN (SELECT value FROM json_each(?))");
        params.push(JSON.stringify(query.releases));
      }
      if (query.environments) {
        where.push("environment IN (SELECT value FROM json_each(?))");
        params.push(JSON.stringify(query.environments));
      }
      const found = db
        .prepare<(string | number)[], { project_id: number; release: string; duration: number }>(
          `SELECT project_id, release, duration FROM session_states WHERE ${where.join(" AND ")} ORDER BY project_id, release, duration`,
        )
        .all(...params);
      const groups = new Map<string, { project: string; release: string; values: number[] }>();
      for (const row of found) {
        const id = `${row.project_id}\u0000${row.release}`;
        let group = groups.get(id);
        if (!group) groups.set(id, (group = { project: String(row.project_id), release: row.release, values: [] }));
        group.values.push(row.duration);
      }
      return [...groups.values()].map(({ project, release, values }): SessionDurationRow => ({
        project, release, sessions: values.length, p50: percentileCont(values, 0.5), p90: percentileCont(values, 0.9),
      }));
    },
  };
}
