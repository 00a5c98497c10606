/** The issue stream shared by the project and organisation issue endpoints. */
import { getRuntime } from "../../runtime";
import type { Access } from "../../services/accounts/access";
import { listIssues } from "../../services/issues/list-issues";
import { issueTriageFor } from "../../services/issues/issue-triage-view";
import type { Project } from "../../model";
import { json } from "../handle";
import { issueListParamsOf, statsPeriodOf, type IssueListScope } from "../issue-query";
import { linkHeader } from "../pagination";
import { serializeGroup } from "../serializers/group";

/** `scope`: which endpoint (their `statsPeriod` means different things, as in Sentry). */
export async function issueListResponse(request: Request, access: Access, projects: Project[], scope: IssueListScope): Promise<Response> {
  const { storage, publicUrl } = getRuntime();
  const organization = access.organization;
  const url = new URL(request.url);
  const now = Date.now();
  const statsPeriod = statsPeriodOf(url, scope);
  const params = issueListParamsOf(url, now, scope);
  const page = await listIssues(storage, access, projects, params, now);
  const byId = new Map(projects.map((project) => [project.id, project]));
  // Issue workflow: assignee, bookmark, review and comments of the page's issues.
  const triage = await issueTriageFor(storage, organization, access.principal.user.id, page.items.map((issue) => issue.id));
  const body = page.items.flatMap((issue) => {
    const project = byId.get(issue.projectId);
    if (!project) return [];
    return [serializeGroup(issue, { project, organization, publicUrl }, statsPeriod === "" ? null : { now, period: statsPeriod }, triage.get(issue.id) ?? null)];
  });
  return json(body, 200, linkHeader(request, publicUrl, page.nextCursor));
}
