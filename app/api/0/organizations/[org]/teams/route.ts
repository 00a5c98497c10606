import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeTeam } from "@/src/api/serializers/accounts";
import { listTeamSummaries } from "@/src/services/accounts/teams";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/teams/", {
  /** Every team of the organisation (as in Sentry, members see teams they are not on, with `isMember: false`). */
  GET: async (_request, _params, { runtime, access }) => {
    const teams = await listTeamSummaries(runtime.storage, access);
    return json(teams.map(({ team, memberCount, isMember }) => serializeTeam(team, memberCount, isMember)));
  },
});
