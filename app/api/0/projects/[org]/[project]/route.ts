import { z } from "zod";
import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { allowedDomains, allowedDomainsInput, setAllowedDomains } from "@/src/services/projects/allowed-domains";
import { filterListOptions, filterListsInput, inboundFilters, setFilterLists } from "@/src/services/projects/inbound-filters";
import type { Project } from "@/src/model";
import type { Runtime } from "@/src/runtime";

export const dynamic = "force-dynamic";

/**
 * Sentry's project PUT; of its fields Periscope changes `allowedDomains` and the list filters in
 * `options` (others are refused by name).
 */
const updateProjectInput = z.object({ allowedDomains: allowedDomainsInput.optional(), options: filterListsInput.optional() }).strict();

async function details(runtime: Runtime, project: Project, organization: Parameters<typeof serializeProject>[1]) {
  return {
    ...serializeProject(project, organization, runtime.publicUrl),
    allowedDomains: await allowedDomains(runtime.storage, project),
    options: filterListOptions(await inboundFilters(runtime.storage, project)),
  };
}

/** Sentry's ProjectDetails: the project with its `allowedDomains`. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json(await details(runtime, project, access.organization));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const input = await readJsonBody(request, updateProjectInput);
    if (input.allowedDomains) await setAllowedDomains(runtime.storage, actor, project, input.allowedDomains);
    if (input.options) await setFilterLists(runtime.storage, actor, project, input.options);
    runtime.invalidateKeys();
    return json(await details(runtime, project, access.organization));
  },
});
