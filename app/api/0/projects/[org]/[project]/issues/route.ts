import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { issueListResponse } from "@/src/api/routes/issue-list";
import { bulkDeleteIssues, bulkUpdateIssues } from "@/src/api/routes/issue-bulk";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/issues/", {
  GET: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return issueListResponse(request, access, [project], "project");
  },
  // Issue workflow: bulk changes.
  PUT: async (request, params, context) => bulkUpdateIssues(request, [await projectInPath(context.runtime.storage, context.access, params.project)], context, "project"),
  DELETE: async (request, params, context) => bulkDeleteIssues(request, [await projectInPath(context.runtime.storage, context.access, params.project)], context, "project"),
});
