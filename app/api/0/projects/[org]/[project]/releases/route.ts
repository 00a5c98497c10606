import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { healthForRequest } from "@/src/api/release-health";
import { serializeRelease } from "@/src/api/serializers/release";
import { listReleases } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/releases/", {
  GET: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const query = new URL(request.url).searchParams.get("query") ?? undefined;
    const summaries = await listReleases(runtime.storage, access, { project, query, limit: 1000 });
    const health = await healthForRequest(request, summaries);
    return json(summaries.map((summary) => serializeRelease(summary, health)));
  },
});
