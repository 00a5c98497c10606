import { readJsonBody } from "@/src/api/body";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { filterIdOf, filterInput, setInboundFilter } from "@/src/services/projects/inbound-filters";

export const dynamic = "force-dynamic";

/** Sentry's ProjectFilterDetails: `{"active": true|false}`, or `{"subfilters": [...]}` for legacy-browsers; 204. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/filters/{filterId}/", {
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const id = filterIdOf(params.filterId);
    await setInboundFilter(runtime.storage, actor, project, id, await readJsonBody(request, filterInput));
    runtime.invalidateKeys();
    return new Response(null, { status: 204 });
  },
});
