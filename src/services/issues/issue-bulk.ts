/**
 * Bulk issue changes (Sentry's `PUT`/`DELETE` on the project and organisation issue lists): the
 * issues named by `id`, or every issue matching the list query (at most BULK_LIMIT), then the same
 * update as one issue gets, a merge, or a delete.
 */
import { AppError } from "../../errors";
import type { Issue, Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { Access } from "../accounts/access";
import type { IssueUpdate } from "./issue-update-input";
import { applyIssueUpdate, type Actor } from "./issue-workflow";
import { listIssues, type IssueListParams } from "./list-issues";

/** Sentry's limit for one bulk mutation. */
export const BULK_LIMIT = 1000;

export interface Selected {
  issue: Issue;
  project: Project;
}

/**
 * `ids` when given (ids of other projects are left out, as Sentry does), else the query's matches
 * (the full search syntax; `access` resolves `assigned:me`, `#team`, … as the list does).
 */
export async function selectIssues(
  storage: Storage,
  access: Access,
  projects: Project[],
  ids: string[],
  params: IssueListParams,
  now = Date.now(),
): Promise<Selected[]> {
  const byId = new Map(projects.map((project) => [project.id, project]));
  if (ids.length > BULK_LIMIT) throw new AppError("bad_request", `id: at most ${BULK_LIMIT} issues at once`);
  if (ids.length > 0) {
    for (const id of ids) if (!/^\d+$/.test(id)) throw new AppError("bad_request", `id: "${id}" is not an issue id`);
    const found = await Promise.all([...new Set(ids)].map((id) => storage.issues.getById(id)));
    return found.flatMap((issue) => {
      const project = issue ? byId.get(issue.projectId) : undefined;
      return issue && project ? [{ issue, project }] : [];
    });
  }
  const selected: Selected[] = [];
  let cursor: string | undefined;
  do {
    const page = await listIssues(storage, access, projects, { ...params, limit: 100, cursor }, now);
    for (const issue of page.items) {
      const project = byId.get(issue.projectId);
      if (project) selected.push({ issue, project });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && selected.length < BULK_LIMIT);
  return selected.slice(0, BULK_LIMIT);
}

/** Merges into the issue with the most events (Sentry's choice); all must be of one project. */
export async function mergeIssues(storage: Storage, actor: Actor, selected: Selected[], now = Date.now()): Promise<{ parent: string; children: string[] }> {
  if (selected.length < 2) throw new AppError("bad_request", "merge: needs at least two issues");
  if (new Set(selected.map((s) => s.project.id)).size > 1) throw new AppError("bad_request", "merge: merging issues of different projects is not supported");
  const [parent, ...rest] = [...selected].sort((a, b) => b.issue.count - a.issue.count || Number(a.issue.id) - Number(b.issue.id));
  const children = await storage.issues.merge(parent!.issue.id, rest.map((s) => s.issue.id));
  const shortIds = new Map(rest.map((s) => [s.issue.id, s.issue.shortId]));
  await storage.issueTriage.addActivity({
    issueId: parent!.issue.id, type: "merge", userId: actor.user.id, data: { issues: children.map((id) => ({ id, shortId: shortIds.get(id) })) }, now,
  });
  return { parent: parent!.issue.id, children };
}

export async function bulkUpdate(storage: Storage, actor: Actor, selected: Selected[], update: IssueUpdate): Promise<Issue[]> {
  const updated: Issue[] = [];
  for (const { issue, project } of selected) updated.push(await applyIssueUpdate(storage, actor, issue, project, update));
  return updated;
}

export async function deleteIssues(storage: Storage, selected: Selected[]): Promise<string[]> {
  const deleted = await storage.issues.deleteIssues(selected.map((s) => s.issue.id));
  await storage.issueTriage.forgetIssues(deleted);
  return deleted;
}

/** Brings back the issues merged in under `hashes`; answers their ids. */
export async function unmergeHashes(storage: Storage, actor: Actor, issue: Issue, hashes: string[], now = Date.now()): Promise<string[]> {
  if (hashes.length === 0) throw new AppError("bad_request", "id: give the hashes to unmerge (?id=<hash>)");
  // Only hashes merged in can leave; the issue's own hash (the one it was created with) stays.
  const mergedIn = new Set((await storage.issues.hashes(issue.id)).filter((h) => h.merged).map((h) => h.hash));
  for (const hash of hashes) if (!mergedIn.has(hash)) throw new AppError("bad_request", `id: ${hash} is not a hash merged into this issue`);
  const restored: string[] = [];
  for (const hash of hashes) {
    const id = await storage.issues.unmergeHash(issue.id, hash);
    if (id === null) throw new AppError("bad_request", `id: ${hash} is not a hash merged into this issue`);
    restored.push(id);
    await storage.issueTriage.addActivity({ issueId: issue.id, type: "unmerge_source", userId: actor.user.id, data: { fingerprints: [hash], destination: id }, now });
    await storage.issueTriage.addActivity({ issueId: id, type: "unmerge_destination", userId: actor.user.id, data: { fingerprints: [hash], source: issue.id }, now });
  }
  return restored;
}

/** The issue's own grouping hash and those merged into it. */
export async function issueHashes(storage: Storage, issue: Issue) {
  return storage.issues.hashes(issue.id);
}
