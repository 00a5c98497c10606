import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializePrivacy } from "@/src/api/serializers/privacy";
import { serializeProject } from "@/src/api/serializers/project";
import type { Organization, PrivacySettings, Project } from "@/src/model";
import type { Runtime } from "@/src/runtime";
import { projectPrivacy, privacyInput, updateProjectPrivacy } from "@/src/services/privacy/settings";
import { allowedDomains, allowedDomainsInput, setAllowedDomains } from "@/src/services/projects/allowed-domains";
import { filterListOptions, filterListsInput, inboundFilters, setFilterLists } from "@/src/services/projects/inbound-filters";

export const dynamic = "force-dynamic";

/**
 * Sentry's project PUT; of its fields Periscope changes the data scrubbing settings, `allowedDomains`
 * and the list filters in `options` (others are refused by name).
 */
const updateProjectInput = privacyInput.extend({ allowedDomains: allowedDomainsInput.optional(), options: filterListsInput.optional() });

async function details(runtime: Runtime, project: Project, organization: Organization, settings: PrivacySettings) {
  return Object.assign(serializeProject(project, organization, runtime.publicUrl), serializePrivacy(settings), {
    allowedDomains: await allowedDomains(runtime.storage, project),
    options: filterListOptions(await inboundFilters(runtime.storage, project)),
  });
}

/** A project's details with its data scrubbing settings, allowed domains and list filters. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json(await details(runtime, project, access.organization, await projectPrivacy(runtime.storage, project)));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const { allowedDomains: domains, options, ...privacy } = await readJsonBody(request, updateProjectInput);
    if (domains) await setAllowedDomains(runtime.storage, actor, project, domains);
    if (options) await setFilterLists(runtime.storage, actor, project, options);
    const changesPrivacy = Object.values(privacy).some((value) => value !== undefined);
    const settings = changesPrivacy ? await updateProjectPrivacy(runtime.storage, actor, project, privacy) : await projectPrivacy(runtime.storage, project);
    runtime.invalidateKeys();
    return json(await details(runtime, project, access.organization, settings));
  },
});
