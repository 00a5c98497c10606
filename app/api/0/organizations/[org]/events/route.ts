import { handle } from "@/src/api/handle";
import { projectIdsOf } from "@/src/api/issue-query";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { discoverResponse } from "@/src/api/routes/discover";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { listProjects } from "@/src/services/projects/list-projects";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string }>(async (request, { org }) => {
  const { storage } = getRuntime();
  const organization = await resolveOrganization(storage, org);
  const projects = await listProjects(storage, organization, projectIdsOf(new URL(request.url)));
  return discoverResponse(request, projects);
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
