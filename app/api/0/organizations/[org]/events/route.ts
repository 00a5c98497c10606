import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoute } from "@/src/api/route";
import { discoverResponse } from "@/src/api/routes/discover";

export const dynamic = "force-dynamic";

export const GET = apiRoute("GET /api/0/organizations/{org}/events/", async (request, _params, { runtime, access }) =>
  discoverResponse(request, await requestedProjects(runtime.storage, request, access)),
);

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
