/**
 * Release health (issue 37): per release (and project) the sessions and users of a window, how many
 * of them ended badly, adoption and session durations, from the session counters both engines keep
 * (single `session` updates and `sessions` aggregates count alike).
 *
 * Crash-free counts a session as failed when it crashed, ended abnormally or — what browser SDKs
 * send for an uncaught error — ended `unhandled`; errored sessions (handled errors) are reported
 * apart and stay crash-free. Rates and adoption are percentages, as Sentry's `healthData` has them.
 */
import { SESSION_HEALTH, type SessionHealth, type SessionStatsRow } from "../../model";
import type { Storage } from "../../storage/types";

export type ByHealth = Record<SessionHealth, number>;

export interface HealthFigures {
  sessions: number;
  users: number;
  sessionsByHealth: ByHealth;
  usersByHealth: ByHealth;
  /** Crashed + abnormal + unhandled sessions. */
  sessionsCrashed: number;
  sessionsErrored: number;
  /** 0–100, null without sessions. */
  crashFreeSessions: number | null;
  crashFreeUsers: number | null;
  /** Share of the project's (or projects') users / sessions in the window that ran this release, 0–100. */
  adoption: number | null;
  sessionsAdoption: number | null;
  /** Seconds, over exited single sessions that sent a duration; null without any. */
  durationP50: number | null;
  durationP90: number | null;
}

export interface HealthWindow {
  /** Whole hours, [start, end). */
  start: number;
  end: number;
  environments?: string[];
}

const FAILED: readonly SessionHealth[] = ["crashed", "abnormal", "unhandled"];
export const zeroByHealth = (): ByHealth => ({ healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0 });
const total = (counts: ByHealth) => SESSION_HEALTH.reduce((sum, health) => sum + counts[health], 0);
const failed = (counts: ByHealth) => FAILED.reduce((sum, health) => sum + counts[health], 0);

/** 1 − failed / all, as a percentage; null when there is nothing to rate. */
export function crashFreeRate(counts: ByHealth): number | null {
  const all = total(counts);
  return all === 0 ? null : 100 * (1 - failed(counts) / all);
}

export function figuresOf(sessions: ByHealth, users: ByHealth, whole: { sessions: number; users: number } | null): HealthFigures {
  const sessionCount = total(sessions);
  const userCount = total(users);
  return {
    sessions: sessionCount,
    users: userCount,
    sessionsByHealth: sessions,
    usersByHealth: users,
    sessionsCrashed: failed(sessions),
    sessionsErrored: sessions.errored,
    crashFreeSessions: crashFreeRate(sessions),
    crashFreeUsers: crashFreeRate(users),
    adoption: whole && whole.users > 0 && userCount > 0 ? (100 * userCount) / whole.users : null,
    sessionsAdoption: whole && whole.sessions > 0 && sessionCount > 0 ? (100 * sessionCount) / whole.sessions : null,
    durationP50: null,
    durationP90: null,
  };
}

function addRow(target: Map<string, { sessions: ByHealth; users: ByHealth }>, key: string, row: SessionStatsRow): void {
  let entry = target.get(key);
  if (!entry) target.set(key, (entry = { sessions: zeroByHealth(), users: zeroByHealth() }));
  entry.sessions[row.health] += row.sessions;
  entry.users[row.health] += row.users;
}

export const healthKey = (projectId: string | null, release: string) => (projectId === null ? release : `${projectId}\u0000${release}`);

/**
 * Health of every release with sessions in the window, keyed by `healthKey`: per project and
 * release (`perProject`), or per release over all the given projects (adoption then against all
 * of their sessions and users). Users are distinct per key, each in the worst health they reached.
 */
export async function releaseHealth(
  storage: Storage,
  projectIds: string[],
  window: HealthWindow,
  options: { perProject: boolean; releases?: string[] },
): Promise<Map<string, HealthFigures>> {
  const out = new Map<string, HealthFigures>();
  if (projectIds.length === 0) return out;
  const base = { projectIds, start: window.start, end: window.end, interval: window.end - window.start, ...(window.environments ? { environments: window.environments } : {}) };
  const releases = options.releases ? { releases: options.releases } : {};
  const [byRelease, whole, durations] = await Promise.all([
    storage.sessions.stats({ ...base, ...releases, groupBy: options.perProject ? ["project", "release"] : ["release"] }),
    storage.sessions.stats({ ...base, groupBy: options.perProject ? ["project"] : [] }),
    storage.sessions.durations({ ...base, ...releases }),
  ]);
  const wholeCounts = new Map<string, { sessions: ByHealth; users: ByHealth }>();
  for (const row of whole) if (row.slot === null) addRow(wholeCounts, options.perProject ? (row.project ?? "") : "", row);
  const counts = new Map<string, { sessions: ByHealth; users: ByHealth }>();
  for (const row of byRelease) {
    if (row.slot !== null || row.release === undefined) continue;
    addRow(counts, healthKey(options.perProject ? (row.project ?? "") : null, row.release), row);
  }
  for (const [key, entry] of counts) {
    const project = options.perProject ? key.split("\u0000")[0]! : "";
    const all = wholeCounts.get(project);
    out.set(key, figuresOf(entry.sessions, entry.users, all ? { sessions: total(all.sessions), users: total(all.users) } : null));
  }
  // Quantiles do not add up across projects: an all-projects figure has them only when one project sent durations.
  const durationsByKey = new Map<string, typeof durations>();
  for (const row of durations) {
    const key = healthKey(options.perProject ? row.project : null, row.release);
    durationsByKey.set(key, [...(durationsByKey.get(key) ?? []), row]);
  }
  for (const [key, rows] of durationsByKey) {
    const figures = out.get(key);
    if (!figures || rows.length !== 1) continue;
    figures.durationP50 = rows[0]!.p50;
    figures.durationP90 = rows[0]!.p90;
  }
  return out;
}

export interface HealthSeries {
  /** Start of each interval, Unix ms. */
  x: number[];
  sessions: ByHealth[];
  crashFreeSessions: (number | null)[];
}

/** Sessions by health per interval of one release over the given projects (all releases when `release` is null). */
export async function healthSeries(
  storage: Storage,
  projectIds: string[],
  window: HealthWindow & { interval: number },
  release: string | null,
): Promise<HealthSeries> {
  const x: number[] = [];
  for (let at = window.start; at < window.end; at += window.interval) x.push(at);
  const sessions = x.map(zeroByHealth);
  if (projectIds.length > 0) {
    const rows = await storage.sessions.stats({
      projectIds, start: window.start, end: window.end, interval: window.interval, groupBy: [],
      ...(release !== null ? { releases: [release] } : {}), ...(window.environments ? { environments: window.environments } : {}),
    });
    for (const row of rows) {
      const slot = row.slot === null ? undefined : sessions[row.slot];
      if (slot) slot[row.health] += row.sessions;
    }
  }
  return { x, sessions, crashFreeSessions: sessions.map(crashFreeRate) };
}

const HOUR = 3_600_000;

/** [start, end) widened to whole hours, the resolution of the session counters. */
export function hourWindow(start: number, end: number): { start: number; end: number } {
  return { start: Math.floor(start / HOUR) * HOUR, end: Math.ceil(end / HOUR) * HOUR };
}

/** What Sentry's releases API puts in each project's `healthData`: summary-period figures and last-24h adoption. */
export interface ApiHealth {
  summary: HealthFigures | null;
  day: HealthFigures | null;
  /** The project's sessions and users in the last 24 hours (adoption's denominators). */
  projectDay: { sessions: number; users: number };
  /** `healthStatsPeriod`'s series: [bucket start in Unix seconds, sessions or users] per bucket. */
  stats: Record<string, [number, number][]>;
}

/** Sentry's `healthStatsPeriod`: 24 hourly or 14 daily buckets, ending with the current one. */
export const HEALTH_STATS_PERIODS = { "24h": { buckets: 24, size: HOUR }, "14d": { buckets: 14, size: 24 * HOUR } } as const;
export type HealthStatsPeriod = keyof typeof HEALTH_STATS_PERIODS;

/** Health of these releases' projects for the releases API (`health=1`), keyed by `healthKey(project, version)`. */
export async function apiReleaseHealth(
  storage: Storage,
  projectIds: string[],
  versions: string[],
  options: { now: number; summaryPeriod: number; environments?: string[]; statsPeriod?: HealthStatsPeriod; statsOf?: "sessions" | "users" },
): Promise<Map<string, ApiHealth>> {
  const out = new Map<string, ApiHealth>();
  if (projectIds.length === 0 || versions.length === 0) return out;
  const env = options.environments && options.environments.length > 0 ? { environments: options.environments } : {};
  const summaryWindow = { ...hourWindow(options.now - options.summaryPeriod, options.now), ...env };
  const dayWindow = { ...hourWindow(options.now - 24 * HOUR, options.now), ...env };
  const period = options.statsPeriod ? HEALTH_STATS_PERIODS[options.statsPeriod] : null;
  const statsEnd = period ? Math.floor(options.now / period.size) * period.size + period.size : 0;
  const statsStart = period ? statsEnd - period.buckets * period.size : 0;
  const [summary, day, projectDay, series] = await Promise.all([
    releaseHealth(storage, projectIds, summaryWindow, { perProject: true, releases: versions }),
    releaseHealth(storage, projectIds, dayWindow, { perProject: true, releases: versions }),
    storage.sessions.stats({ projectIds, ...dayWindow, interval: dayWindow.end - dayWindow.start, groupBy: ["project"] }),
    period
      ? storage.sessions.stats({ projectIds, start: statsStart, end: statsEnd, interval: period.size, groupBy: ["project", "release"], releases: versions, ...env })
      : Promise.resolve([]),
  ]);
  const buckets = new Map<string, number[]>();
  for (const row of series) {
    if (row.slot === null || row.project === undefined || row.release === undefined || !period) continue;
    const key = healthKey(row.project, row.release);
    let values = buckets.get(key);
    if (!values) buckets.set(key, (values = Array.from({ length: period.buckets }, () => 0)));
    values[row.slot] = (values[row.slot] ?? 0) + (options.statsOf === "users" ? row.users : row.sessions);
  }
  const projectTotals = new Map<string, { sessions: number; users: number }>();
  for (const row of projectDay) {
    if (row.slot !== null || row.project === undefined) continue;
    const entry = projectTotals.get(row.project) ?? { sessions: 0, users: 0 };
    entry.sessions += row.sessions;
    entry.users += row.users;
    projectTotals.set(row.project, entry);
  }
  for (const projectId of projectIds) {
    for (const version of versions) {
      const key = healthKey(projectId, version);
      const stats: Record<string, [number, number][]> = {};
      if (period && options.statsPeriod) {
        const values = buckets.get(key);
        stats[options.statsPeriod] = Array.from({ length: period.buckets }, (_, index): [number, number] => [(statsStart + index * period.size) / 1000, values?.[index] ?? 0]);
      }
      out.set(key, { summary: summary.get(key) ?? null, day: day.get(key) ?? null, projectDay: projectTotals.get(projectId) ?? { sessions: 0, users: 0 }, stats });
    }
  }
  return out;
}

/** The environments that sent sessions to these projects in the window ("" — none sent — left out), sorted. */
export async function healthEnvironments(storage: Storage, projectIds: string[], window: { start: number; end: number }): Promise<string[]> {
  if (projectIds.length === 0) return [];
  const rows = await storage.sessions.stats({ projectIds, ...window, interval: window.end - window.start, groupBy: ["environment"] });
  return [...new Set(rows.flatMap((row) => (row.environment ? [row.environment] : [])))].sort();
}
