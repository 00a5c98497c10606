/** Sentry's release, deploy, commit and repository shapes, as sentry-cli and Sentry's API docs read them. */
import type { ArtifactBundle, Deploy, ReleaseCommit, ReleaseFile, Repository } from "../../model";
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

export function serializeRelease(summary: ReleaseSummary | ReleaseDetail) {
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
    projects: summary.projects.map((project) => ({ id: Number(project.id), slug: project.slug, name: project.name, platform: project.platform, platforms: project.platform ? [project.platform] : [], newGroups: 0 })),
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
