import { handle } from "@/src/api/handle";
import { projectIdsOf } from "@/src/api/issue-query";
import { issueListResponse } from "@/src/api/routes/issue-list";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { listProjects } from "@/src/services/projects/list-projects";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string }>(async (request, { org }) => {
  const { storage } = getRuntime();
  const organization = await resolveOrganization(storage, org);
  const projects = await listProjects(storage, organization, projectIdsOf(new URL(request.url)));
  return issueListResponse(request, organization, projects);
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
