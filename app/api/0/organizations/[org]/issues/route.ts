import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { issueListResponse } from "@/src/api/routes/issue-list";
import { bulkDeleteIssues, bulkUpdateIssues } from "@/src/api/routes/issue-bulk";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/issues/", {
  GET: async (request, _params, { runtime, access }) =>
    issueListResponse(request, access, await requestedProjects(runtime.storage, request, access), "organization"),
  // Issue workflow: bulk changes.
  PUT: async (request, _params, context) => bulkUpdateIssues(request, await requestedProjects(context.runtime.storage, request, context.access), context, "organization"),
  DELETE: async (request, _params, context) => bulkDeleteIssues(request, await requestedProjects(context.runtime.storage, request, context.access), context, "organization"),
});
