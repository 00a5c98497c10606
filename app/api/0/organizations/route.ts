import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { userRoute } from "@/src/api/route";
import { serializeOrganization } from "@/src/api/serializers/organization";
import { organizationsOf } from "@/src/services/accounts/access";

export const dynamic = "force-dynamic";

/** Only the organisations the caller belongs to, as in Sentry. */
export const GET = userRoute("GET /api/0/organizations/", async (_request, _params, { runtime, principal }) => {
  const organizations = await organizationsOf(runtime.storage, principal.user);
  return json(organizations.map((organization) => serializeOrganization(organization, runtime.publicUrl)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
