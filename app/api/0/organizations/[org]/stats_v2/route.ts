import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { statsV2Response } from "@/src/api/routes/stats-v2";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/stats_v2/", {
  GET: async (request, _params, { runtime, access }) =>
    statsV2Response(request, await requestedProjects(runtime.storage, request, access)),
});
