/**
 * Sentry's bulk issue API on the project and organisation issue lists: `PUT ?id=1&id=2` (or by the
 * list's `query`) with the issue update body, `{"merge": 1}` to merge, and `DELETE` to delete. No
 * matching issue: 204, as Sentry answers. Also the issue's `hashes/` (list, and unmerge by DELETE).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { Project } from "../../model";
import { bulkUpdate, deleteIssues, issueHashes, mergeIssues, selectIssues, unmergeHashes } from "../../services/issues/issue-bulk";
import { issueTriageFor } from "../../services/issues/issue-triage-view";
import { parseIssueUpdate } from "../../services/issues/issue-update-input";
import { readJsonBody } from "../body";
import { json } from "../handle";
import { issueListParamsOf, type IssueListScope } from "../issue-query";
import type { ApiContext } from "../route";
import { statusDetailsJson } from "../serializers/group";
import { visibleIssue } from "./issue-details";

const actorOf = (context: ApiContext) => ({ user: context.principal.user, organization: context.access.organization });
const noContent = () => new Response(null, { status: 204 });

/** `scope`: which list endpoint, as for GET (the organisation's `statsPeriod` is a time window). */
async function selected(request: Request, projects: Project[], context: ApiContext, scope: IssueListScope) {
  const url = new URL(request.url);
  const now = Date.now();
  return selectIssues(context.runtime.storage, context.access, projects, url.searchParams.getAll("id"), issueListParamsOf(url, now, scope), now);
}

export async function bulkUpdateIssues(request: Request, projects: Project[], context: ApiContext, scope: IssueListScope): Promise<Response> {
  const update = parseIssueUpdate(await readJsonBody(request, z.object({}).passthrough()));
  const issues = await selected(request, projects, context, scope);
  if (issues.length === 0) return noContent();
  const { storage } = context.runtime;
  if (update.merge) return json({ merge: await mergeIssues(storage, actorOf(context), issues) });
  const updated = await bulkUpdate(storage, actorOf(context), issues, update);
  // Like Sentry: the changes as they now read (of the first issue, the same for all).
  const first = updated[0]!;
  const triage = (await issueTriageFor(storage, context.access.organization, context.principal.user.id, [first.id])).get(first.id)!;
  const body: Record<string, unknown> = {};
  if (update.status) Object.assign(body, { status: first.status, substatus: first.substatus, statusDetails: statusDetailsJson(first.statusDetails) });
  if (update.assignedTo !== undefined) body.assignedTo = triage.assignee;
  if (update.isBookmarked !== undefined) body.isBookmarked = triage.isBookmarked;
  if (update.inbox !== undefined) body.inbox = !triage.reviewed;
  return json(body);
}

export async function bulkDeleteIssues(request: Request, projects: Project[], context: ApiContext, scope: IssueListScope): Promise<Response> {
  const issues = await selected(request, projects, context, scope);
  await deleteIssues(context.runtime.storage, issues);
  return noContent();
}

export async function listIssueHashes(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue } = await visibleIssue(context, params.issueId);
  const hashes = await issueHashes(context.runtime.storage, issue);
  return json(hashes.map((h) => ({ id: h.hash, merged: h.merged, latestEvent: h.latestEventId ? { eventID: h.latestEventId } : null })));
}

export async function unmergeIssueHashes(request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue } = await visibleIssue(context, params.issueId);
  const hashes = new URL(request.url).searchParams.getAll("id");
  if (hashes.length > 100) throw new AppError("bad_request", "id: at most 100 hashes at once");
  await unmergeHashes(context.runtime.storage, actorOf(context), issue, hashes);
  return noContent();
}

/** Sentry's `DELETE /issues/{id}/`: the issue with its events; 202 as Sentry answers. */
export async function deleteIssue(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue, project } = await visibleIssue(context, params.issueId);
  await deleteIssues(context.runtime.storage, [{ issue, project }]);
  return new Response(null, { status: 202 });
}
