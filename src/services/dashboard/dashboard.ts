/**
 * The organisation dashboard, the landing page after login (issue 37): per project the accepted
 * errors and the crash-free session rate of a window, its newest and regressed issues, and the
 * releases in progress (sessions in the window, by adoption) — over the projects the person sees.
 */
import { SESSION_HEALTH, type IssueWithStats, type Project } from "../../model";
import type { Storage } from "../../storage/types";
import { crashFreeRate, releaseHealth, zeroByHealth, type ByHealth, type HealthFigures } from "../releases/health";
import { statsCategory } from "../telemetry/outcome-stats";

export interface ProjectOverview {
  project: Project;
  errors: number;
  /** Accepted errors per interval. */
  errorSeries: number[];
  sessions: ByHealth;
  crashFreeSessions: number | null;
}

export interface ReleaseInProgress {
  project: Project;
  version: string;
  figures: HealthFigures;
}

export interface Dashboard {
  /** Start of each interval, Unix ms. */
  x: number[];
  projects: ProjectOverview[];
  /** All projects' sessions by health, per interval. */
  sessionSeries: ByHealth[];
  newest: IssueWithStats[];
  regressed: IssueWithStats[];
  releases: ReleaseInProgress[];
}

const LIST = 8;

export async function dashboard(
  storage: Storage,
  projects: Project[],
  window: { start: number; end: number; interval: number; now: number },
): Promise<Dashboard> {
  const x: number[] = [];
  for (let at = window.start; at < window.end; at += window.interval) x.push(at);
  const projectIds = projects.map((project) => project.id);
  const empty: Dashboard = { x, projects: [], sessionSeries: x.map(zeroByHealth), newest: [], regressed: [], releases: [] };
  if (projectIds.length === 0) return empty;
  const [outcomes, sessions, newest, recent, health] = await Promise.all([
    storage.outcomes.hourly({ projectIds, start: window.start, end: window.end }),
    storage.sessions.stats({ projectIds, start: window.start, end: window.end, interval: window.interval, groupBy: ["project"] }),
    storage.issues.query({ projectIds, status: "unresolved", sort: "new", limit: LIST, now: window.now }),
    storage.issues.query({ projectIds, status: "unresolved", sort: "date", limit: 100, now: window.now }),
    releaseHealth(storage, projectIds, { start: window.start, end: window.end }, { perProject: true }),
  ]);
  const byProject = new Map(projects.map((project): [string, ProjectOverview] => [
    project.id, { project, errors: 0, errorSeries: x.map(() => 0), sessions: zeroByHealth(), crashFreeSessions: null },
  ]));
  for (const row of outcomes) {
    const entry = byProject.get(row.projectId);
    if (!entry || row.outcome !== "accepted" || statsCategory(row.category) !== "error") continue;
    if (row.hour < window.start || row.hour >= window.end) continue;
    entry.errors += row.quantity;
    entry.errorSeries[Math.floor((row.hour - window.start) / window.interval)]! += row.quantity;
  }
  const sessionSeries = x.map(zeroByHealth);
  for (const row of sessions) {
    const entry = row.project === undefined ? undefined : byProject.get(row.project);
    if (!entry) continue;
    if (row.slot === null) entry.sessions[row.health] += row.sessions;
    else if (sessionSeries[row.slot]) sessionSeries[row.slot]![row.health] += row.sessions;
  }
  for (const entry of byProject.values()) entry.crashFreeSessions = crashFreeRate(entry.sessions);
  const projectById = new Map(projects.map((project) => [project.id, project]));
  const releases: ReleaseInProgress[] = [];
  for (const [key, figures] of health) {
    const [projectId, version] = key.split("\u0000") as [string, string];
    const project = projectById.get(projectId);
    if (project) releases.push({ project, version, figures });
  }
  releases.sort((a, b) => (b.figures.sessionsAdoption ?? 0) - (a.figures.sessionsAdoption ?? 0) || a.version.localeCompare(b.version));
  return {
    x,
    projects: [...byProject.values()].sort((a, b) => b.errors - a.errors || sumOf(b.sessions) - sumOf(a.sessions) || a.project.slug.localeCompare(b.project.slug)),
    sessionSeries,
    newest: newest.items,
    regressed: recent.items.filter((issue) => issue.substatus === "regressed").slice(0, LIST),
    releases: releases.slice(0, LIST),
  };
}

const sumOf = (counts: ByHealth) => SESSION_HEALTH.reduce((sum, health) => sum + counts[health], 0);
