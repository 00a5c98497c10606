import { handle } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { requestedProjects } from "@/src/api/requested-projects";
import { statsV2Response } from "@/src/api/routes/stats-v2";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string }>(async (request, { org }) => statsV2Response(request, await requestedProjects(request, org)));

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
