/**
 * The engine-independent half of release-health queries: each engine sums `session_counts` and
 * counts distinct users per most severe health from `session_users` (grouped by the requested
 * dimensions and slot); this merges the two result sets into the contract's rows.
 */
import { SESSION_HEALTH, type SessionStatsRow } from "../model";

// Allow-list: the only group-by identifiers that reach SQL.
export const SESSION_GROUP_COLUMNS = { project: "project_id", release: "release", environment: "environment" } as const;

/** One grouped row as both engines return it: `health` a name (counts) or a severity (users). */
export interface SessionStatsSqlRow {
  project_id?: number;
  release?: string;
  environment?: string;
  slot: number | null;
  health: number | string;
  sessions: number;
}

export function mergeSessionStats(counts: SessionStatsSqlRow[], users: SessionStatsSqlRow[]): SessionStatsRow[] {
  const out = new Map<string, SessionStatsRow>();
  const entry = (row: SessionStatsSqlRow, health: SessionStatsRow["health"]): SessionStatsRow => {
    const group: Omit<SessionStatsRow, "sessions" | "users"> = { slot: row.slot, health };
    if (row.project_id !== undefined) group.project = String(row.project_id);
    if (row.release !== undefined) group.release = row.release;
    if (row.environment !== undefined) group.environment = row.environment === "" ? null : row.environment;
    const id = JSON.stringify(group);
    let existing = out.get(id);
    if (!existing) out.set(id, (existing = { ...group, sessions: 0, users: 0 }));
    return existing;
  };
  for (const row of counts) entry(row, row.health as SessionStatsRow["health"]).sessions += row.sessions;
  for (const row of users) {
    const health = SESSION_HEALTH[Number(row.health)];
    if (health) entry(row, health).users += row.sessions;
  }
  return [...out.values()].filter((row) => row.sessions !== 0 || row.users !== 0);
}

/** PostgreSQL's `percentile_cont`: linear interpolation between the two nearest ranks of sorted values. */
export function percentileCont(sorted: readonly number[], fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] ?? 0;
  const b = sorted[high] ?? a;
  return a + (b - a) * (position - low);
}
