import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { serializeTeam } from "@/src/api/serializers/accounts";
import { listTeams } from "@/src/services/accounts/teams";

export const dynamic = "force-dynamic";

/** Every team of the organisation (as in Sentry, members see teams they are not on, with `isMember: false`). */
export const GET = apiRoute("GET /api/0/organizations/{org}/teams/", async (_request, _params, { runtime, access }) => {
  const { storage } = runtime;
  const teams = await listTeams(storage, access);
  const mine = new Set((await storage.accounts.teams.listForMember(access.member.id)).map((team) => team.id));
  const body = await Promise.all(
    teams.map(async (team) => serializeTeam(team, (await storage.accounts.teams.listMembers(team.id)).length, mine.has(team.id))),
  );
  return json(body);
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
