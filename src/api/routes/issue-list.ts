/** The issue stream shared by the project and organisation issue endpoints. */
import { getRuntime } from "../../runtime";
import { listIssues } from "../../services/issues/list-issues";
import { issueTriageFor } from "../../services/issues/issue-triage-view";
import type { Organization, Project } from "../../model";
import { json } from "../handle";
import { issueListParamsOf, statsPeriodOf } from "../issue-query";
import { linkHeader } from "../pagination";
import { serializeGroup } from "../serializers/group";

/** `viewerId`: whose bookmarks the issues show (issue workflow). */
export async function issueListResponse(request: Request, organization: Organization, projects: Project[], viewerId?: string): Promise<Response> {
  const { storage, publicUrl } = getRuntime();
  const url = new URL(request.url);
  const statsPeriod = statsPeriodOf(url);
  const params = issueListParamsOf(url);
  const now = Date.now();
  const page = await listIssues(storage, projects, params, now);
  const byId = new Map(projects.map((project) => [project.id, project]));
  // Issue workflow: assignee, bookmark, review and comments of the page's issues.
  const triage = viewerId ? await issueTriageFor(storage, organization, viewerId, page.items.map((issue) => issue.id)) : null;
  const body = page.items.flatMap((issue) => {
    const project = byId.get(issue.projectId);
    if (!project) return [];
    return [serializeGroup(issue, { project, organization, publicUrl }, statsPeriod === "24h" ? { now } : null, triage?.get(issue.id) ?? null)];
  });
  return json(body, 200, linkHeader(request, publicUrl, page.nextCursor));
}
