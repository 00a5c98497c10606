import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeUser } from "@/src/api/serializers/accounts";
import { listMembers } from "@/src/services/accounts/members";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/users/", {
  /** The people of the organisation (Sentry's OrganizationUsersEndpoint: users, not memberships). */
  GET: async (_request, _params, { runtime, access }) => {
    const members = await listMembers(runtime.storage, access);
    return json(members.map((member) => serializeUser(member.user)));
  },
});
