import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoute } from "@/src/api/route";
import { issueListResponse } from "@/src/api/routes/issue-list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("GET /api/0/projects/{org}/{project}/issues/", async (request, params, { runtime, access }) => {
  const project = await projectInPath(runtime.storage, access, params.project);
  return issueListResponse(request, access.organization, [project]);
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
