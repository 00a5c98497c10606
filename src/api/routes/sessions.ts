/**
 * `GET /api/0/organizations/{org}/sessions/` — Sentry's release-health query
 * (`sentry/snuba/sessions_v2.py`, `sentry/release_health/metrics_sessions_v2.py`):
 *
 *   { start, end, query, intervals: [iso…], groups: [{ by: {…}, totals: {field: n}, series: {field: [n…]} }] }
 *
 * Fields: `sum(session)`, `count_unique(user)`, `crash_free_rate(session)`, `crash_free_rate(user)`.
 * groupBy: `session.status` (healthy, errored, unhandled, abnormal, crashed — every one present, as
 * in Sentry), `release`, `environment`, `project`. Each session counts in the most severe status it
 * reached; so does each user over their sessions in a group.
 */
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { getSessionStats } from "../../services/telemetry/session-stats";
import { SESSION_HEALTH, type Project, type SessionGroupKey, type SessionHealth, type SessionStatsRow } from "../../model";
import { json } from "../handle";
import { searchFiltersOf } from "../search-filters";
import { intervalsOf, isoSeconds, statsWindowOf } from "../../services/telemetry/stats-window";

const FIELDS = ["sum(session)", "count_unique(user)", "crash_free_rate(session)", "crash_free_rate(user)"] as const;
type SessionField = (typeof FIELDS)[number];
const GROUP_BY = ["session.status", "release", "environment", "project"] as const;
type SessionGroupBy = (typeof GROUP_BY)[number];

type ByHealth = Record<SessionHealth, number>;
interface Counts {
  sessions: ByHealth;
  users: ByHealth;
}

const zero = (): ByHealth => ({ healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0 });
const emptyCounts = (): Counts => ({ sessions: zero(), users: zero() });
const sum = (values: ByHealth) => SESSION_HEALTH.reduce((total, health) => total + values[health], 0);

function listParam<T extends string>(url: URL, name: string, allowed: readonly T[], what: string): T[] {
  const values = url.searchParams.getAll(name);
  const bad = values.find((value) => !allowed.includes(value as T));
  if (bad !== undefined) throw new AppError("bad_request", `Invalid ${what}: "${bad}" (supported: ${allowed.join(", ")})`);
  return [...new Set(values as T[])];
}

/** A field's value for one group: a status group's own count, or the whole group's. */
function valueOf(field: SessionField, counts: Counts, health: SessionHealth | null): number | null {
  switch (field) {
    case "sum(session)":
      return health ? counts.sessions[health] : sum(counts.sessions);
    case "count_unique(user)":
      return health ? counts.users[health] : sum(counts.users);
    case "crash_free_rate(session)": {
      const total = sum(counts.sessions);
      return total === 0 ? null : 1 - counts.sessions.crashed / total;
    }
    case "crash_free_rate(user)": {
      const total = sum(counts.users);
      return total === 0 ? null : 1 - counts.users.crashed / total;
    }
  }
}

export async function sessionsResponse(request: Request, projects: Project[]): Promise<Response> {
  const { storage } = getRuntime();
  const url = new URL(request.url);
  const fields = listParam(url, "field", FIELDS, "field");
  if (fields.length === 0) throw new AppError("bad_request", 'Request is missing a "field"');
  const groupBy = listParam<SessionGroupBy>(url, "groupBy", GROUP_BY, "groupBy");
  const byStatus = groupBy.includes("session.status");
  const rate = fields.find((field) => field.startsWith("crash_free_rate"));
  if (byStatus && rate) throw new AppError("bad_request", `Cannot group field ${rate} by session.status`);
  const query = url.searchParams.get("query") ?? "";
  const filters = searchFiltersOf(query, ["release", "environment"] as const);
  const environments = [...url.searchParams.getAll("environment"), ...(filters.get("environment") ?? [])];
  const releases = filters.get("release");
  const window = statsWindowOf(url, Date.now());
  const dims = groupBy.filter((key): key is SessionGroupKey => key !== "session.status");

  const rows = await getSessionStats(storage, projects, {
    ...window, groupBy: dims, ...(releases ? { releases } : {}), ...(environments.length > 0 ? { environments } : {}),
  });
  const intervals = intervalsOf(window);
  const groups = new Map<string, { by: Pick<SessionStatsRow, SessionGroupKey>; totals: Counts; series: Counts[] }>();
  const groupOf = (row: Pick<SessionStatsRow, SessionGroupKey>) => {
    const by = Object.fromEntries(dims.map((key) => [key, row[key]])) as Pick<SessionStatsRow, SessionGroupKey>;
    const id = JSON.stringify(dims.map((key) => by[key]));
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { by, totals: emptyCounts(), series: intervals.map(emptyCounts) }));
    return group;
  };
  if (dims.length === 0) groupOf({});
  for (const row of rows) {
    const counts = row.slot === null ? groupOf(row).totals : groupOf(row).series[row.slot];
    if (!counts) continue;
    counts.sessions[row.health] += row.sessions;
    counts.users[row.health] += row.users;
  }

  const byJson = (by: Pick<SessionStatsRow, SessionGroupKey>, health: SessionHealth | null) =>
    Object.fromEntries(groupBy.map((key) => [key, key === "session.status" ? health : key === "project" ? Number(by.project) : by[key]]));
  const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
  const body = sorted.flatMap((group) =>
    (byStatus ? SESSION_HEALTH : [null]).map((health) => ({
      by: byJson(group.by, health),
      totals: Object.fromEntries(fields.map((field) => [field, valueOf(field, group.totals, health)])),
      series: Object.fromEntries(fields.map((field) => [field, group.series.map((counts) => valueOf(field, counts, health))])),
    })),
  );
  return json({ start: isoSeconds(window.start), end: isoSeconds(window.end), query, intervals, groups: body });
}
