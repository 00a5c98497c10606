import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { resolveTeam } from "@/src/services/accounts/teams";
import { createProject, createProjectInput } from "@/src/services/projects/create-project";

export const dynamic = "force-dynamic";

/** As in Sentry, a project is created under the team that will own it; the team must exist in the organisation. */
export const POST = apiRoute("POST /api/0/teams/{org}/{team}/projects/", async (request, params, { runtime, access, actor }) => {
  const team = await resolveTeam(runtime.storage, access, params.team);
  const input = await readJsonBody(request, createProjectInput);
  const { project } = await createProject(runtime.storage, actor, access.organization, team, input);
  runtime.invalidateKeys();
  return json(serializeProject(project, access.organization, runtime.publicUrl), 201);
});

export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
