import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { filterList, inboundFilters } from "@/src/services/projects/inbound-filters";

export const dynamic = "force-dynamic";

/** Sentry's ProjectFilters: the four inbound filters and whether each is on. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/filters/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json(filterList(await inboundFilters(runtime.storage, project)));
  },
});
