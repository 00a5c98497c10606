import { readJsonBody } from "@/src/api/body";
import { handle, json } from "@/src/api/handle";
import { serializeProject } from "@/src/api/serializers/project";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { createProject, createProjectInput } from "@/src/services/projects/create-project";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

/** Sentry creates projects under a team; until teams exist the team segment is accepted and ignored. */
export const POST = handle<{ org: string; team: string }>(async (request, { org }) => {
  const runtime = getRuntime();
  const organization = await resolveOrganization(runtime.storage, org);
  const input = await readJsonBody(request, createProjectInput);
  const { project } = await createProject(runtime.storage, organization, input);
  runtime.invalidateKeys();
  return json(serializeProject(project, organization, runtime.publicUrl), 201);
});

export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
