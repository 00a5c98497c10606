import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { visibleProjects } from "@/src/services/accounts/access";
import { listProjects } from "@/src/services/projects/list-projects";

export const dynamic = "force-dynamic";

/** Only the projects the caller's teams own (all of them for owners and admins). */
export const GET = apiRoute("GET /api/0/organizations/{org}/projects/", async (_request, _params, { runtime, access }) => {
  const projects = visibleProjects(access, await listProjects(runtime.storage, access.organization));
  return json(projects.map((project) => serializeProject(project, access.organization, runtime.publicUrl)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
