import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { serializeUser } from "@/src/api/serializers/accounts";
import { listMembers } from "@/src/services/accounts/members";

export const dynamic = "force-dynamic";

/** The people of the organisation (Sentry's OrganizationUsersEndpoint: users, not memberships). */
export const GET = apiRoute("GET /api/0/organizations/{org}/users/", async (_request, _params, { runtime, access }) => {
  const members = await listMembers(runtime.storage, access);
  return json(members.map((member) => serializeUser(member.user)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
