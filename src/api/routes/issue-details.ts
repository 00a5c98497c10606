/**
 * `GET|PUT /api/0/issues/{id}/`, also served under Sentry's organisation-scoped alias
 * `/api/0/organizations/{org}/issues/{id}/`. An issue of another organisation, or of a project the
 * caller's teams do not own, is a 404 exactly like one that does not exist.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { requireProject } from "../../services/accounts/access";
import { getIssue } from "../../services/issues/get-issue";
import { parseIssueStatus, updateIssueStatus } from "../../services/issues/update-issue-status";
import { readJsonBody } from "../body";
import { json } from "../handle";
import type { ApiContext } from "../route";
import { serializeGroup } from "../serializers/group";

const updateBody = z.object({ status: z.unknown().optional() });

/** The issue with its project, when the caller may see it. */
export async function visibleIssue(context: ApiContext, issueId: string) {
  const { issue, project } = await getIssue(context.runtime.storage, issueId);
  if (project.organizationId !== context.access.organization.id) throw new AppError("not_found", "issue not found");
  requireProject(context.access, project, "issue");
  return { issue, project };
}

export async function getIssueDetails(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue, project } = await visibleIssue(context, params.issueId);
  return json(serializeGroup(issue, { project, organization: context.access.organization, publicUrl: context.runtime.publicUrl }));
}

export async function updateIssueDetails(request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { storage, publicUrl } = context.runtime;
  const { status } = await readJsonBody(request, updateBody);
  const { project } = await visibleIssue(context, params.issueId);
  const issue = await updateIssueStatus(storage, params.issueId, parseIssueStatus(status));
  return json(serializeGroup(issue, { project, organization: context.access.organization, publicUrl }));
}
