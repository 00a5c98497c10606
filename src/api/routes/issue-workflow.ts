/**
 * Issue workflow routes: Sentry's issue update (`PUT /issues/{id}/`: status with statusDetails,
 * assignedTo, isBookmarked, inbox), delete, comments (`/issues/{id}/comments/`) and the activity
 * log (`/issues/{id}/activities/`).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { Issue, Project } from "../../model";
import { getIssue } from "../../services/issues/get-issue";
import { parseIssueUpdate } from "../../services/issues/issue-update-input";
import { addIssueNote, applyIssueUpdate } from "../../services/issues/issue-workflow";
import { issueActivity, issueTriageFor, type ActivityView } from "../../services/issues/issue-triage-view";
import { isoDate } from "../serializers/common";
import { readJsonBody } from "../body";
import { json } from "../handle";
import type { ApiContext } from "../route";
import { serializeGroup } from "../serializers/group";
import { visibleIssue } from "./issue-details";

/** The issue as Sentry's GroupSerializer writes it, with the caller's triage view. */
export async function issueJson(context: ApiContext, issue: Issue, project: Project) {
  const { storage, publicUrl } = context.runtime;
  const organization = context.access.organization;
  const triage = (await issueTriageFor(storage, organization, context.principal.user.id, [issue.id])).get(issue.id) ?? null;
  return serializeGroup(issue, { project, organization, publicUrl }, null, triage);
}

export async function updateIssue(request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const update = parseIssueUpdate(await readJsonBody(request, z.object({}).passthrough()));
  if (update.merge) throw new AppError("bad_request", "merge: only on the issue list, with the issues to merge (PUT …/issues/?id=1&id=2)");
  const { issue, project } = await visibleIssue(context, params.issueId);
  const { storage } = context.runtime;
  const updated = await applyIssueUpdate(storage, { user: context.principal.user, organization: context.access.organization }, issue, project, update);
  return json(await issueJson(context, (await getIssue(storage, updated.id)).issue, project));
}

function activityJson(entry: ActivityView) {
  return {
    id: entry.id,
    type: entry.type,
    data: entry.data,
    dateCreated: isoDate(entry.dateCreated),
    user: entry.user ? { id: entry.user.id, name: entry.user.name || entry.user.email, email: entry.user.email } : null,
  };
}

export async function listIssueActivities(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue } = await visibleIssue(context, params.issueId);
  const entries = await issueActivity(context.runtime.storage, context.access.organization, issue.id);
  return json({ activity: entries.map(activityJson) });
}

export async function listIssueComments(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue } = await visibleIssue(context, params.issueId);
  const entries = await issueActivity(context.runtime.storage, context.access.organization, issue.id);
  return json(entries.filter((entry) => entry.type === "note").map(activityJson));
}

export async function addIssueComment(request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const body = await readJsonBody(request, z.object({ text: z.unknown() }));
  const { issue } = await visibleIssue(context, params.issueId);
  const note = await addIssueNote(context.runtime.storage, issue.id, context.principal.user.id, body.text);
  const user = context.principal.user;
  return json(activityJson({ ...note, user: { id: user.id, name: user.name, email: user.email } }), 201);
}
