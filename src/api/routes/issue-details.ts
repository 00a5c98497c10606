/**
 * `GET|PUT /api/0/issues/{id}/`, also served under Sentry's organisation-scoped alias
 * `/api/0/organizations/{org}/issues/{id}/`. An issue of another organisation, or of a project the
 * caller's teams do not own, is a 404 exactly like one that does not exist.
 */
import { AppError } from "../../errors";
import { requireProject } from "../../services/accounts/access";
import { getIssue } from "../../services/issues/get-issue";
import { json } from "../handle";
import type { ApiContext } from "../route";
import { issueJson, updateIssue } from "./issue-workflow";

/** The issue with its project, when the caller may see it. */
export async function visibleIssue(context: ApiContext, issueId: string) {
  const { issue, project } = await getIssue(context.runtime.storage, issueId);
  if (project.organizationId !== context.access.organization.id) throw new AppError("not_found", "issue not found");
  requireProject(context.access, project, "issue");
  return { issue, project };
}

export async function getIssueDetails(_request: Request, params: { issueId: string }, context: ApiContext): Promise<Response> {
  const { issue, project } = await visibleIssue(context, params.issueId);
  return json(await issueJson(context, issue, project));
}

/** Sentry's issue update: status (with statusDetails), assignedTo, isBookmarked, inbox (issue-workflow.ts). */
export const updateIssueDetails = updateIssue;
