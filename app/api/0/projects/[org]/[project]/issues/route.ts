import { handle } from "@/src/api/handle";
import { issueListResponse } from "@/src/api/routes/issue-list";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization, resolveProject } from "@/src/services/organizations/resolve";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string; project: string }>(async (request, { org, project: slug }) => {
  const { storage } = getRuntime();
  const project = await resolveProject(storage, org, slug);
  const organization = await resolveOrganization(storage, project.organizationId);
  return issueListResponse(request, organization, [project]);
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
