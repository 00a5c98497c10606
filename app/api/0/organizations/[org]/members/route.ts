import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeMember } from "@/src/api/serializers/accounts";
import { listMembers } from "@/src/services/accounts/members";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/members/", {
  GET: async (_request, _params, { runtime, access }) => {
    const members = await listMembers(runtime.storage, access);
    return json(members.map(serializeMember));
  },
});
