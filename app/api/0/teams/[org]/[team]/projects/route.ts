import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { resolveTeam } from "@/src/services/accounts/teams";
import { createProject, createProjectInput } from "@/src/services/projects/create-project";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/teams/{org}/{team}/projects/", {
  /** As in Sentry, a project is created under the team that will own it; the team must exist in the organisation. */
  POST: async (request, params, { runtime, access, actor }) => {
    const team = await resolveTeam(runtime.storage, access, params.team);
    const input = await readJsonBody(request, createProjectInput);
    const { project } = await createProject(runtime.storage, actor, access.organization, team, input);
    runtime.invalidateKeys();
    return json(serializeProject(project, access.organization, runtime.publicUrl), 201);
  },
});
