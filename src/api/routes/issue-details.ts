/**
 * `GET|PUT /api/0/issues/{id}/`, also served under Sentry's organisation-scoped alias
 * `/api/0/organizations/{org}/issues/{id}/`, where an issue of another organisation is a 404.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { getIssue } from "../../services/issues/get-issue";
import { parseIssueStatus, updateIssueStatus } from "../../services/issues/update-issue-status";
import { resolveOrganization } from "../../services/organizations/resolve";
import { readJsonBody } from "../body";
import { handle, json } from "../handle";
import { serializeGroup } from "../serializers/group";

interface IssueParams {
  issueId: string;
  org?: string;
}

const updateBody = z.object({ status: z.unknown().optional() });

async function scopeOf(params: IssueParams) {
  const { storage } = getRuntime();
  const { issue, project } = await getIssue(storage, params.issueId);
  const organization = await resolveOrganization(storage, project.organizationId);
  if (params.org !== undefined && params.org !== organization.slug && params.org !== organization.id) {
    throw new AppError("not_found", "issue not found");
  }
  return { issue, project, organization };
}

export const getIssueDetails = handle<IssueParams>(async (_request, params) => {
  const { issue, project, organization } = await scopeOf(params);
  return json(serializeGroup(issue, { project, organization, publicUrl: getRuntime().publicUrl }));
});

export const updateIssueDetails = handle<IssueParams>(async (request, params) => {
  const { storage, publicUrl } = getRuntime();
  const { status } = await readJsonBody(request, updateBody);
  const { project, organization } = await scopeOf(params);
  const issue = await updateIssueStatus(storage, params.issueId, parseIssueStatus(status));
  return json(serializeGroup(issue, { project, organization, publicUrl }));
});
