/**
 * Releases for the API and (later) the UI: explicit ones (sentry-cli `releases new`) merged with the
 * implicit ones telemetry was sent with. Visibility follows projects: a release is seen by whoever
 * sees one of its projects (a release without projects only by owners and admins).
 */
import { AppError } from "../../errors";
import type { Deploy, Project, Release, ReleaseCommit, Repository } from "../../model";
import type { Storage } from "../../storage/types";
import { visibleProjects, type Access } from "../accounts/access";
import { listProjects } from "../projects/list-projects";
import type { NewDeployInput, NewReleaseInput, UpdateReleaseInput } from "./input";

/** One row of a releases list: what the UI's list and sentry-cli's `releases list` show. */
export interface ReleaseSummary {
  version: string;
  /** Null for a release that exists only because telemetry named it. */
  release: Release | null;
  projects: Project[];
  dateCreated: number;
  dateReleased: number | null;
  firstEvent: number | null;
  lastEvent: number | null;
  newIssues: number;
  lastDeploy: Deploy | null;
  lastCommit: ReleaseCommit | null;
}

export interface ReleaseDetail extends ReleaseSummary {
  commits: ReleaseCommit[];
  deploys: Deploy[];
}

async function visibleOf(storage: Storage, access: Access): Promise<Project[]> {
  return visibleProjects(access, await listProjects(storage, access.organization));
}

/** The projects a body names (slugs or ids) among those the caller sees; 404 naming the first unknown one. */
export async function resolveProjects(storage: Storage, access: Access, refs: readonly string[]): Promise<Project[]> {
  const visible = await visibleOf(storage, access);
  return refs.map((ref) => {
    const project = visible.find((candidate) => candidate.slug === ref || candidate.id === ref);
    // A project the caller's teams do not own is answered like one that does not exist.
    if (!project) throw new AppError("not_found", `project ${ref} not found in organization ${access.organization.slug}`);
    return project;
  });
}

function seesRelease(access: Access, release: Release): boolean {
  if (release.projectIds.length === 0) return access.projects === "all";
  return release.projectIds.some((id) => access.projects === "all" || access.projects.has(id));
}

/** The release if the caller may see it, else 404 (also for one that exists only in another organisation). */
export async function requireRelease(storage: Storage, access: Access, version: string): Promise<Release> {
  const release = await storage.releases.get(access.organization.id, version);
  if (!release || !seesRelease(access, release)) throw new AppError("not_found", `release ${version} not found`);
  return release;
}

export async function listReleases(
  storage: Storage,
  access: Access,
  options: { project?: Project; query?: string; limit: number },
): Promise<ReleaseSummary[]> {
  const projects = options.project ? [options.project] : await visibleOf(storage, access);
  const projectById = new Map(projects.map((project) => [project.id, project]));
  const explicit = (await storage.releases.list(access.organization.id, { projectIds: options.project ? [options.project.id] : undefined, query: options.query, limit: options.limit })).filter(
    (release) => seesRelease(access, release),
  );
  const activity = await storage.releaseActivity.forProjects([...projectById.keys()]);
  const byVersion = new Map<string, ReleaseSummary>();
  const summaryOf = (version: string, release: Release | null, dateCreated: number): ReleaseSummary => {
    let summary = byVersion.get(version);
    if (!summary) {
      summary = { version, release, projects: [], dateCreated, dateReleased: release?.dateReleased ?? null, firstEvent: null, lastEvent: null, newIssues: 0, lastDeploy: null, lastCommit: null };
      byVersion.set(version, summary);
    }
    return summary;
  };
  for (const release of explicit) {
    const summary = summaryOf(release.version, release, release.dateCreated);
    summary.projects = release.projectIds.map((id) => projectById.get(id)).filter((project): project is Project => project !== undefined);
  }
  const query = options.query?.toLowerCase();
  for (const row of activity) {
    if (query && !row.version.toLowerCase().includes(query)) continue;
    const project = projectById.get(row.projectId);
    if (!project) continue;
    const summary = summaryOf(row.version, null, row.firstEvent ?? Date.now());
    if (!summary.projects.some((known) => known.id === project.id)) summary.projects.push(project);
    if (row.firstEvent !== null) summary.firstEvent = Math.min(summary.firstEvent ?? row.firstEvent, row.firstEvent);
    if (row.lastEvent !== null) summary.lastEvent = Math.max(summary.lastEvent ?? row.lastEvent, row.lastEvent);
    summary.newIssues += row.newIssues;
    if (!summary.release) summary.dateCreated = Math.min(summary.dateCreated, row.firstEvent ?? summary.dateCreated);
  }
  const summaries = [...byVersion.values()].sort((a, b) => b.dateCreated - a.dateCreated || (a.version < b.version ? 1 : -1)).slice(0, options.limit);
  const ids = summaries.flatMap((summary) => (summary.release ? [summary.release.id] : []));
  const [deploys, commits] = await Promise.all([storage.releases.lastDeploys(ids), storage.releases.lastCommits(ids)]);
  for (const summary of summaries) {
    if (!summary.release) continue;
    summary.lastDeploy = deploys.get(summary.release.id) ?? null;
    summary.lastCommit = commits.get(summary.release.id) ?? null;
  }
  return summaries;
}

export async function releaseDetail(storage: Storage, access: Access, release: Release): Promise<ReleaseDetail> {
  const projects = (await visibleOf(storage, access)).filter((project) => release.projectIds.includes(project.id));
  const activity = await storage.releaseActivity.forProjects(projects.map((project) => project.id));
  const mine = activity.filter((row) => row.version === release.version);
  const [commits, deploys] = await Promise.all([storage.releases.listCommits(release.id), storage.releases.listDeploys(release.id)]);
  const firsts = mine.flatMap((row) => (row.firstEvent === null ? [] : [row.firstEvent]));
  const lasts = mine.flatMap((row) => (row.lastEvent === null ? [] : [row.lastEvent]));
  return {
    version: release.version,
    release,
    projects,
    dateCreated: release.dateCreated,
    dateReleased: release.dateReleased,
    firstEvent: firsts.length > 0 ? Math.min(...firsts) : null,
    lastEvent: lasts.length > 0 ? Math.max(...lasts) : null,
    newIssues: mine.reduce((sum, row) => sum + row.newIssues, 0),
    lastDeploy: deploys[0] ?? null,
    lastCommit: commits[0] ?? null,
    commits,
    deploys,
  };
}

/** Commits from a body: explicit ones as sent, refs as their head commit (no provider to ask for the range). */
function commitsOf(input: { refs?: NewReleaseInput["refs"]; commits?: NewReleaseInput["commits"] }): ReleaseCommit[] | null {
  if (input.commits) {
    return input.commits.map((commit) => ({
      repository: commit.repository ?? "unknown",
      id: commit.id,
      message: commit.message ?? null,
      authorName: commit.author_name ?? null,
      authorEmail: commit.author_email ?? null,
      timestamp: commit.timestamp ?? null,
    }));
  }
  if (input.refs) return input.refs.map((ref) => ({ repository: ref.repository, id: ref.commit, message: null, authorName: null, authorEmail: null, timestamp: null }));
  return null;
}

export async function createRelease(storage: Storage, access: Access, input: NewReleaseInput): Promise<{ release: Release; created: boolean }> {
  const projects = await resolveProjects(storage, access, input.projects);
  const result = await storage.releases.create({
    organizationId: access.organization.id,
    version: input.version,
    projectIds: projects.map((project) => project.id),
    url: input.url ?? null,
    dateStarted: input.dateStarted ?? null,
    dateReleased: input.dateReleased ?? null,
  });
  const commits = commitsOf(input);
  if (commits) await storage.releases.setCommits(result.release, commits);
  return result;
}

export async function updateRelease(storage: Storage, access: Access, release: Release, input: UpdateReleaseInput): Promise<Release> {
  const projects = input.projects ? await resolveProjects(storage, access, input.projects) : [];
  const updated = await storage.releases.update(access.organization.id, release.version, {
    url: input.url,
    dateReleased: input.dateReleased,
    status: input.status,
    projectIds: projects.map((project) => project.id),
  });
  if (!updated) throw new AppError("not_found", `release ${release.version} not found`);
  const commits = commitsOf(input);
  if (commits) await storage.releases.setCommits(updated, commits);
  return updated;
}

export async function deleteRelease(storage: Storage, access: Access, release: Release): Promise<void> {
  if (!release.projectIds.every((id) => access.projects === "all" || access.projects.has(id))) {
    throw new AppError("forbidden", `release ${release.version} also belongs to projects your teams do not own`);
  }
  await storage.releases.delete(access.organization.id, release.version);
}

export async function addDeploy(storage: Storage, access: Access, release: Release, input: NewDeployInput): Promise<Deploy> {
  const named = input.projects && input.projects.length > 0 ? await resolveProjects(storage, access, input.projects) : null;
  const projects = named ?? (await visibleOf(storage, access)).filter((project) => release.projectIds.includes(project.id));
  const outside = projects.find((project) => !release.projectIds.includes(project.id));
  if (outside) throw new AppError("bad_request", `invalid project: ${outside.slug} is not a project of release ${release.version}`);
  const finished = input.dateFinished ?? Date.now();
  return storage.releases.addDeploy(release.id, {
    environment: input.environment,
    name: input.name ?? null,
    url: input.url ?? null,
    dateStarted: input.dateStarted ?? null,
    dateFinished: finished,
    projectIds: projects.map((project) => project.id),
  });
}


export async function listRepositories(storage: Storage, access: Access): Promise<Repository[]> {
  return storage.releases.listRepositories(access.organization.id);
}

export function listDeploys(storage: Storage, release: Release): Promise<Deploy[]> {
  return storage.releases.listDeploys(release.id);
}

export function listCommits(storage: Storage, release: Release): Promise<ReleaseCommit[]> {
  return storage.releases.listCommits(release.id);
}

export function previousWithCommits(storage: Storage, release: Release): Promise<{ release: Release; lastCommit: ReleaseCommit } | null> {
  return storage.releases.previousWithCommits(release);
}

export function addRepository(storage: Storage, access: Access, input: { name: string; url?: string | null; provider?: string | null }): Promise<Repository> {
  return storage.releases.ensureRepository({ organizationId: access.organization.id, name: input.name, url: input.url ?? null, provider: input.provider ?? null });
}

export function listReleaseFiles(storage: Storage, project: Project, release: Release) {
  return storage.artifacts.listReleaseFiles(project.id, release.version);
}
