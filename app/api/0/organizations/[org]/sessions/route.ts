import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { sessionsResponse } from "@/src/api/routes/sessions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/sessions/", {
  GET: async (request, _params, { runtime, access }) =>
    sessionsResponse(request, await requestedProjects(runtime.storage, request, access)),
});
