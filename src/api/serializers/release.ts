/** Sentry's release, deploy, commit and repository shapes, as sentry-cli and Sentry's API docs read them. */
import type { ArtifactBundle, Deploy, ReleaseCommit, ReleaseFile, Repository } from "../../model";
import { healthKey, type ApiHealth } from "../../services/releases/health";
import type { ReleaseDetail, ReleaseSummary } from "../../services/releases/releases";
import { isoDate } from "./common";

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoDate(ms));

export function serializeDeploy(deploy: Deploy) {
  return {
    id: deploy.id,
    environment: deploy.environment,
    name: deploy.name,
    url: deploy.url,
    dateStarted: isoOrNull(deploy.dateStarted),
    dateFinished: isoDate(deploy.dateFinished),
  };
}

export function serializeCommit(commit: ReleaseCommit) {
  return {
    id: commit.id,
    message: commit.message,
    dateCreated: isoOrNull(commit.timestamp),
    author: commit.authorEmail || commit.authorName ? { name: commit.authorName, email: commit.authorEmail } : null,
    repository: { name: commit.repository },
  };
}

/** Sentry's `healthData` of one project's release (`health=1`): summary-period rates, last-24h adoption. */
export function serializeHealthData(health: ApiHealth) {
  const { summary, day, projectDay } = health;
  return {
    durationP50: summary?.durationP50 ?? null,
    durationP90: summary?.durationP90 ?? null,
    crashFreeUsers: summary?.crashFreeUsers ?? null,
    crashFreeSessions: summary?.crashFreeSessions ?? null,
    sessionsCrashed: summary?.sessionsCrashed ?? 0,
    sessionsErrored: summary?.sessionsErrored ?? 0,
    totalUsers: summary?.users ?? 0,
    totalUsers24h: day?.users ?? 0,
    totalProjectUsers24h: projectDay.users,
    totalSessions: summary?.sessions ?? 0,
    totalSessions24h: day?.sessions ?? 0,
    totalProjectSessions24h: projectDay.sessions,
    adoption: day?.adoption ?? null,
    sessionsAdoption: day?.sessionsAdoption ?? null,
    stats: health.stats,
    hasHealthData: (summary?.sessions ?? 0) > 0,
  };
}

/** `health`: per project and release (healthKey) when the request asked for `health=1`. */
export function serializeRelease(summary: ReleaseSummary | ReleaseDetail, health?: Map<string, ApiHealth>) {
  const { release } = summary;
  const commitCount = "commits" in summary ? summary.commits.length : summary.lastCommit ? null : 0;
  return {
    id: release ? Number(release.id) : null,
    version: summary.version,
    shortVersion: summary.version,
    ref: null,
    url: release?.url ?? null,
    status: release?.status ?? "open",
    dateCreated: isoDate(summary.dateCreated),
    dateStarted: isoOrNull(release?.dateStarted ?? null),
    dateReleased: isoOrNull(summary.dateReleased),
    firstEvent: isoOrNull(summary.firstEvent),
    lastEvent: isoOrNull(summary.lastEvent),
    newGroups: summary.newIssues,
    commitCount,
    lastCommit: summary.lastCommit ? serializeCommit(summary.lastCommit) : null,
    deployCount: "deploys" in summary ? summary.deploys.length : null,
    lastDeploy: summary.lastDeploy ? serializeDeploy(summary.lastDeploy) : null,
    authors: [],
    owner: null,
    data: {},
    projects: summary.projects.map((project) => {
      const entry = health?.get(healthKey(project.id, summary.version));
      return {
        id: Number(project.id), slug: project.slug, name: project.name, platform: project.platform, platforms: project.platform ? [project.platform] : [], newGroups: 0,
        ...(entry ? { hasHealthData: (entry.summary?.sessions ?? 0) > 0, healthData: serializeHealthData(entry) } : {}),
      };
    }),
  };
}

export function serializeRepository(repository: Repository) {
  return {
    id: repository.id,
    name: repository.name,
    url: repository.url,
    provider: { id: repository.provider ?? "manual", name: repository.provider ?? "Manual" },
    status: "active",
    dateCreated: isoDate(repository.dateCreated),
    externalSlug: null,
  };
}

export function serializeReleaseFile(file: ReleaseFile) {
  return {
    id: file.id,
    name: file.name,
    dist: file.dist,
    headers: file.headers,
    size: file.size,
    sha1: file.sha1,
    dateCreated: isoDate(file.dateCreated),
  };
}

export function serializeBundle(bundle: ArtifactBundle) {
  return {
    bundleId: bundle.bundleId,
    checksum: bundle.checksum,
    release: bundle.release,
    dist: bundle.dist,
    fileCount: bundle.fileCount,
    size: bundle.size,
    date: isoDate(bundle.dateUploaded),
  };
}
