/** The issue stream shared by the project and organisation issue endpoints. */
import { getRuntime } from "../../runtime";
import type { Access } from "../../services/accounts/access";
import { listIssues } from "../../services/issues/list-issues";
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
  const body = page.items.flatMap((issue) => {
    const project = byId.get(issue.projectId);
    if (!project) return [];
    return [serializeGroup(issue, { project, organization, publicUrl }, statsPeriod === "" ? null : { now, period: statsPeriod })];
  });
  return json(body, 200, linkHeader(request, publicUrl, page.nextCursor));
}
