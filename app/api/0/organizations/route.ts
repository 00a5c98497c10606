import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeOrganization } from "@/src/api/serializers/organization";
import { organizationsOf } from "@/src/services/accounts/access";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/", {
  /** Only the organisations the caller belongs to, as in Sentry. */
  GET: async (_request, _params, { runtime, principal }) => {
    const organizations = await organizationsOf(runtime.storage, principal.user);
    return json(organizations.map((organization) => serializeOrganization(organization, runtime.publicUrl)));
  },
});
