import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeOrganization } from "@/src/api/serializers/organization";
import { serializePrivacy } from "@/src/api/serializers/privacy";
import { organizationPrivacy, privacyInput, updateOrganizationPrivacy } from "@/src/services/privacy/settings";

export const dynamic = "force-dynamic";

/** An organisation's details with its data scrubbing settings; PUT changes those settings (Sentry's field names). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/", {
  GET: async (_request, _params, { runtime, access }) => {
    const settings = await organizationPrivacy(runtime.storage, access.organization);
    return json(Object.assign(serializeOrganization(access.organization, runtime.publicUrl), serializePrivacy(settings)));
  },
  PUT: async (request, _params, { runtime, access, actor }) => {
    const settings = await updateOrganizationPrivacy(runtime.storage, actor, access.organization, await readJsonBody(request, privacyInput));
    runtime.invalidateKeys();
    return json(Object.assign(serializeOrganization(access.organization, runtime.publicUrl), serializePrivacy(settings)));
  },
});
