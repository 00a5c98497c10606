import { handle, json } from "@/src/api/handle";
import { serializeProject } from "@/src/api/serializers/project";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { listProjects } from "@/src/services/projects/list-projects";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string }>(async (_request, { org }) => {
  const { storage, publicUrl } = getRuntime();
  const organization = await resolveOrganization(storage, org);
  const projects = await listProjects(storage, organization);
  return json(projects.map((project) => serializeProject(project, organization, publicUrl)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
