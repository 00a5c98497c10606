import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoute } from "@/src/api/route";
import { statsV2Response } from "@/src/api/routes/stats-v2";

export const dynamic = "force-dynamic";

export const GET = apiRoute("GET /api/0/organizations/{org}/stats_v2/", async (request, _params, { runtime, access }) =>
  statsV2Response(request, await requestedProjects(runtime.storage, request, access)),
);

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
