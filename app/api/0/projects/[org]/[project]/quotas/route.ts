import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { projectQuotas, quotasInput, updateProjectQuotas } from "@/src/services/quotas/settings";

export const dynamic = "force-dynamic";

/** A project's quotas (with the current window's use), its organisation's, and spike protection; PUT replaces them (docs/api.md "Quotas"). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/quotas/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json(await projectQuotas(runtime.storage, project));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const updated = await updateProjectQuotas(runtime.storage, actor, project, await readJsonBody(request, quotasInput));
    runtime.invalidateKeys();
    return json(updated);
  },
});
