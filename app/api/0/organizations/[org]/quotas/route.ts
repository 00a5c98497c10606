import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { organizationQuotas, quotasInput, updateOrganizationQuotas } from "@/src/services/quotas/settings";

export const dynamic = "force-dynamic";

/** The organisation's quotas, which count all its projects together; PUT replaces them (docs/api.md "Quotas"). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/quotas/", {
  GET: async (_request, _params, { runtime, access }) => json(await organizationQuotas(runtime.storage, access.organization)),
  PUT: async (request, _params, { runtime, access, actor }) => {
    const updated = await updateOrganizationQuotas(runtime.storage, actor, access.organization, await readJsonBody(request, quotasInput));
    runtime.invalidateKeys();
    return json(updated);
  },
});
