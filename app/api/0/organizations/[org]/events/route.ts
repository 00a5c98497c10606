import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { discoverResponse } from "@/src/api/routes/discover";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/events/", {
  GET: async (request, _params, { runtime, access }) =>
    discoverResponse(request, await requestedProjects(runtime.storage, request, access)),
});
