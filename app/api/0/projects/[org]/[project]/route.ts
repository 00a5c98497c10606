import { z } from "zod";
import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { allowedDomains, allowedDomainsInput, setAllowedDomains } from "@/src/services/projects/allowed-domains";

export const dynamic = "force-dynamic";

/** Sentry's project PUT; of its fields Periscope changes `allowedDomains` (others are refused by name). */
const updateProjectInput = z.object({ allowedDomains: allowedDomainsInput.optional() }).strict();

/** Sentry's ProjectDetails: the project with its `allowedDomains`. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json({ ...serializeProject(project, access.organization, runtime.publicUrl), allowedDomains: await allowedDomains(runtime.storage, project) });
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const input = await readJsonBody(request, updateProjectInput);
    const domains = input.allowedDomains ? await setAllowedDomains(runtime.storage, actor, project, input.allowedDomains) : await allowedDomains(runtime.storage, project);
    runtime.invalidateKeys();
    return json({ ...serializeProject(project, access.organization, runtime.publicUrl), allowedDomains: domains });
  },
});
