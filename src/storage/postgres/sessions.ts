import { toSessionUpdate, type SessionStateRow } from "../rows";
import { mergeSessionStats, SESSION_GROUP_COLUMNS, type SessionStatsSqlRow } from "../session-stats";
import { type SessionRepo, type SessionStatsQuery, type SessionStatsRow, type SessionUpdate } from "../types";
import { idsOf, isId, type Param, type PgDb, type Queryable } from "./db";

/** The stored state of these sessions, keyed project\0sid. */
export async function loadSessionStates(db: Queryable, keys: { projectId: number; sid: string }[]): Promise<Map<string, SessionUpdate>> {
  const rows = keys.length === 0 ? [] : await db.query<SessionStateRow>(
    "SELECT s.* FROM session_states s JOIN unnest($1::bigint[], $2::text[]) AS k(project_id, sid) USING (project_id, sid)",
    [keys.map((k) => k.projectId), keys.map((k) => k.sid)],
  );
  return new Map(rows.map((row) => [`${row.project_id}\u0000${row.sid}`, toSessionUpdate(row)]));
}


/** Release health from the hourly counters; same rules as the SQLite engine (sqlite/sessions.ts). */
export function postgresSessions(db: PgDb): SessionRepo {
  function filters(query: SessionStatsQuery, params: Param[]): string {
    const p = (value: Param) => `$${params.push(value)}`;
    const where = [
      `project_id = ANY(${p(idsOf(query.projectIds))}::bigint[])`,
      `hour >= ${p(query.start)}`,
      `hour < ${p(query.end)}`,
    ];
    if (query.releases) where.push(`release = ANY(${p(query.releases)}::text[])`);
    if (query.environments) where.push(`environment = ANY(${p(query.environments)}::text[])`);
    return where.join(" AND ");
  }

  async function run(query: SessionStatsQuery, series: boolean, users: boolean): Promise<SessionStatsSqlRow[]> {
    const params: Param[] = [];
    const dims = query.groupBy.map((key) => SESSION_GROUP_COLUMNS[key]);
    let slot = "NULL::bigint";
    if (series) {
      const start = `$${params.push(query.start)}`;
      slot = `((hour - ${start}) / $${params.push(query.interval)})`;
    }
    const where = filters(query, params);
    const keys = [...dims, "slot"].join(", ");
    const sql = users
      ? `SELECT ${keys}, severity AS health, COUNT(*) AS sessions FROM (
           SELECT ${[...dims, `${slot} AS slot`].join(", ")}, did, MAX(severity) AS severity
           FROM session_users WHERE ${where} GROUP BY ${keys}, did) per_user
         GROUP BY ${keys}, severity ORDER BY ${keys}, severity`
      : `SELECT ${[...dims, `${slot} AS slot`].join(", ")}, health, SUM(quantity) AS sessions
         FROM session_counts WHERE ${where} GROUP BY ${keys}, health ORDER BY ${keys}, health COLLATE "C"`;
    return db.query<SessionStatsSqlRow>(sql, params);
  }

  const rows = async (query: SessionStatsQuery, series: boolean): Promise<SessionStatsRow[]> =>
    mergeSessionStats(await run(query, series, false), await run(query, series, true));

  return {
    async get(projectId, sid) {
      if (!isId(projectId)) return null;
      const states = await loadSessionStates(db, [{ projectId: Number(projectId), sid }]);
      return states.get(`${projectId}\u0000${sid}`) ?? null;
    },
    async stats(query) {
      if (query.projectIds.length === 0) return [];
      return [...(await rows(query, false)), ...(await rows(query, true))];
    },
    async durations(query) {
      if (query.projectIds.length === 0) return [];
      const params: Param[] = [];
      const p = (value: Param) => `$${params.push(value)}`;
      const where = [
        `project_id = ANY(${p(idsOf(query.projectIds))}::bigint[])`, `started >= ${p(query.start)}`, `started < ${p(query.end)}`,
        "init", "status = 'exited'", "duration IS NOT NULL",
      ];
      if (query.releases) where.push(`release = ANY(${p(query.releases)}::text[])`);
      if (query.environments) where.push(`environment = ANY(${p(query.environments)}::text[])`);
      const found = await db.query<{ project_id: string; release: string; sessions: string; p50: number; p90: number }>(
        `SELECT project_id, release, COUNT(*) AS sessions,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS p50,
                percentile_cont(0.9) WITHIN GROUP (ORDER BY duration) AS p90
         FROM session_states WHERE ${where.join(" AND ")} GROUP BY project_id, release ORDER BY project_id, release COLLATE "C"`,
        params,
      );
      return found.map((row) => ({ project: String(row.project_id), release: row.release, sessions: Number(row.sessions), p50: Number(row.p50), p90: Number(row.p90) }));
    },
  };
}
