import { SESSION_HEALTH, type SessionRepo, type SessionStatsQuery, type SessionStatsRow, type SessionUpdate } from "../types";
import type { Db } from "./db";

export interface SessionStateRow {
  project_id: number;
  sid: string;
  did: string | null;
  seq: number;
  init: number;
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
  init: row.init === 1,
  started: row.started,
  timestamp: row.timestamp,
  status: row.status,
  errors: row.errors,
  duration: row.duration,
  release: row.release,
  environment: row.environment === "" ? null : row.environment,
});

export function sessionStateParams(projectId: number, state: SessionUpdate): SessionStateRow {
  return {
    project_id: projectId, sid: state.sid, did: state.did, seq: state.seq, init: state.init ? 1 : 0,
    started: state.started, timestamp: state.timestamp, status: state.status, errors: state.errors,
    duration: state.duration, release: state.release, environment: state.environment ?? "",
  };
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

  function run(query: SessionStatsQuery, series: boolean, users: boolean): StatsRow[] {
    const dims = query.groupBy.map((key) => GROUP_COLUMNS[key]);
    const slot = series ? "(hour - ?) / ?" : "NULL";
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
    return db.prepare<(string | number)[], StatsRow>(sql).all(...slotParams, ...params);
  }

  function rows(query: SessionStatsQuery, series: boolean): SessionStatsRow[] {
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
    for (const row of run(query, series, false)) entry(row, row.health as SessionStatsRow["health"]).sessions += row.sessions;
    for (const row of run(query, series, true)) {
      const health = SESSION_HEALTH[Number(row.health)];
      if (health) entry(row, health).users += row.sessions;
    }
    return [...out.values()].filter((row) => row.sessions !== 0 || row.users !== 0);
  }

  return {
    async get(projectId, sid) {
      const row = byId.get(Number(projectId), sid);
      return row ? toSessionUpdate(row) : null;
    },
    async stats(query) {
      if (query.projectIds.length === 0) return [];
      return [...rows(query, false), ...rows(query, true)];
    },
  };
}
