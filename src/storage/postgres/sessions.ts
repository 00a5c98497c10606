import { SESSION_HEALTH, type SessionRepo, type SessionStatsQuery, type SessionStatsRow, type SessionUpdate } from "../types";
import type { Param, PgDb, Queryable } from "./db";

export interface SessionStateRow {
  project_id: number;
  sid: string;
  did: string | null;
  seq: number;
  init: boolean;
  started: number;
  timestamp: number;
  status: string;
  errors: number;
  duration: number | null;
  release: string;
  environment: string;
}

export const toSessionUpdate = (row: SessionStateRow): SessionUpdate => ({
  sid: row.sid,
  did: row.did,
  seq: row.seq,
  init: row.init,
  started: row.started,
  timestamp: row.timestamp,
  status: row.status,
  errors: row.errors,
  duration: row.duration,
  release: row.release,
  environment: row.environment === "" ? null : row.environment,
});

/** The stored state of these sessions, keyed project\0sid. */
export async function loadSessionStates(db: Queryable, keys: { projectId: number; sid: string }[]): Promise<Map<string, SessionUpdate>> {
  const rows = keys.length === 0 ? [] : await db.query<SessionStateRow>(
    "SELECT s.* FROM session_states s JOIN unnest($1::bigint[], $2::text[]) AS k(project_id, sid) USING (project_id, sid)",
    [keys.map((k) => k.projectId), keys.map((k) => k.sid)],
  );
  return new Map(rows.map((row) => [`${row.project_id}\u0000${row.sid}`, toSessionUpdate(row)]));
}

// Allow-list: the only group-by identifiers that reach SQL.
const GROUP_COLUMNS = { project: "project_id", release: "release", environment: "environment" } as const;

interface StatsRow {
  project_id?: number;
  release?: string;
  environment?: string;
  slot: number | null;
  health: number | string;
  sessions: number;
}

/** Release health from the hourly counters; same rules as the SQLite engine (sqlite/sessions.ts). */
export function postgresSessions(db: PgDb): SessionRepo {
  function filters(query: SessionStatsQuery, params: Param[]): string {
    const p = (value: Param) => `$${params.push(value)}`;
    const where = [
      `project_id = ANY(${p(query.projectIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number))}::bigint[])`,
      `hour >= ${p(query.start)}`,
      `hour < ${p(query.end)}`,
    ];
    if (query.releases) where.push(`release = ANY(${p(query.releases)}::text[])`);
    if (query.environments) where.push(`environment = ANY(${p(query.environments)}::text[])`);
    return where.join(" AND ");
  }

  async function run(query: SessionStatsQuery, series: boolean, users: boolean): Promise<StatsRow[]> {
    const params: Param[] = [];
    const dims = query.groupBy.map((key) => GROUP_COLUMNS[key]);
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
    return db.query<StatsRow>(sql, params);
  }

  async function rows(query: SessionStatsQuery, series: boolean): Promise<SessionStatsRow[]> {
    const out = new Map<string, SessionStatsRow>();
    const entry = (row: StatsRow, health: SessionStatsRow["health"]): SessionStatsRow => {
      const group: Omit<SessionStatsRow, "sessions" | "users"> = { slot: row.slot, health };
      if (row.project_id !== undefined) group.project = String(row.project_id);
      if (row.release !== undefined) group.release = row.release;
      if (row.environment !== undefined) group.environment = row.environment === "" ? null : row.environment;
      const id = JSON.stringify(group);
      let existing = out.get(id);
      if (!existing) out.set(id, (existing = { ...group, sessions: 0, users: 0 }));
      return existing;
    };
    for (const row of await run(query, series, false)) entry(row, row.health as SessionStatsRow["health"]).sessions += row.sessions;
    for (const row of await run(query, series, true)) {
      const health = SESSION_HEALTH[Number(row.health)];
      if (health) entry(row, health).users += row.sessions;
    }
    return [...out.values()].filter((row) => row.sessions !== 0 || row.users !== 0);
  }

  return {
    async get(projectId, sid) {
      if (!/^\d{1,15}$/.test(projectId)) return null;
      const states = await loadSessionStates(db, [{ projectId: Number(projectId), sid }]);
      return states.get(`${projectId}\u0000${sid}`) ?? null;
    },
    async stats(query) {
      if (query.projectIds.length === 0) return [];
      return [...(await rows(query, false)), ...(await rows(query, true))];
    },
  };
}
