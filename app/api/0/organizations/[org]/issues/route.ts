import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { issueListResponse } from "@/src/api/routes/issue-list";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/issues/", {
  GET: async (request, _params, { runtime, access }) =>
    issueListResponse(request, access, await requestedProjects(runtime.storage, request, access), "organization"),
});
