import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeTeam } from "@/src/api/serializers/accounts";
import { listTeams } from "@/src/services/accounts/teams";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/teams/", {
  /** Every team of the organisation (as in Sentry, members see teams they are not on, with `isMember: false`). */
  GET: async (_request, _params, { runtime, access }) => {
    const { storage } = runtime;
    const teams = await listTeams(storage, access);
    const mine = new Set((await storage.accounts.teams.listForMember(access.member.id)).map((team) => team.id));
    const body = await Promise.all(
      teams.map(async (team) => serializeTeam(team, (await storage.accounts.teams.listMembers(team.id)).length, mine.has(team.id))),
    );
    return json(body);
  },
});
