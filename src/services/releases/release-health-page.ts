/**
 * The health part of the release page (issue 37): the release's figures in a window, sessions by
 * health over time, the issues that regressed in it, and the release before it (by creation date,
 * among releases sharing a project) for comparison.
 */
import type { IssueWithStats, Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { Access } from "../accounts/access";
import { healthEnvironments, healthSeries, releaseHealth, type HealthFigures, type HealthSeries } from "./health";
import { listReleases, type ReleaseSummary } from "./releases";

export interface ReleaseHealthView {
  figures: HealthFigures | null;
  series: HealthSeries;
  environments: string[];
  previous: { summary: ReleaseSummary; figures: HealthFigures | null } | null;
  regressions: IssueWithStats[];
}

export async function releaseHealthView(
  storage: Storage,
  access: Access,
  release: ReleaseSummary,
  options: { start: number; end: number; interval: number; environment?: string; now: number },
): Promise<ReleaseHealthView> {
  const projectIds = release.projects.map((project: Project) => project.id);
  const window = { start: options.start, end: options.end, ...(options.environment ? { environments: [options.environment] } : {}) };
  const previous = await previousRelease(storage, access, release);
  const versions = previous ? [release.version, previous.version] : [release.version];
  const [health, series, environments, touched] = await Promise.all([
    releaseHealth(storage, projectIds, window, { perProject: false, releases: versions }),
    healthSeries(storage, projectIds, { ...window, interval: options.interval }, release.version),
    healthEnvironments(storage, projectIds, window),
    projectIds.length === 0
      ? Promise.resolve({ items: [] as IssueWithStats[] })
      : storage.issues.query({ projectIds, release: release.version, status: "unresolved", sort: "date", limit: 100, now: options.now }),
  ]);
  return {
    figures: health.get(release.version) ?? null,
    series,
    environments,
    previous: previous ? { summary: previous, figures: health.get(previous.version) ?? null } : null,
    // Open again after a resolve, with the newest event from this release.
    regressions: touched.items.filter((issue) => issue.substatus === "regressed" && issue.lastRelease === release.version),
  };
}

/** The newest release created before this one that shares one of its projects. */
async function previousRelease(storage: Storage, access: Access, release: ReleaseSummary): Promise<ReleaseSummary | null> {
  if (release.projects.length === 0) return null;
  const mine = new Set(release.projects.map((project) => project.id));
  const all = await listReleases(storage, access, { limit: 1000 });
  let best: ReleaseSummary | null = null;
  for (const candidate of all) {
    if (candidate.version === release.version || candidate.dateCreated > release.dateCreated) continue;
    if (candidate.dateCreated === release.dateCreated && candidate.version > release.version) continue;
    if (!candidate.projects.some((project) => mine.has(project.id))) continue;
    if (!best || candidate.dateCreated > best.dateCreated || (candidate.dateCreated === best.dateCreated && candidate.version > best.version)) best = candidate;
  }
  return best;
}
