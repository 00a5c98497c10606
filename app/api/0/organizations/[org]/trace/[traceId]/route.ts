import { handle, json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { serializeTrace } from "@/src/api/serializers/trace";
import { getRuntime } from "@/src/runtime";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { listProjects } from "@/src/services/projects/list-projects";
import { getTrace } from "@/src/services/telemetry/get-trace";

export const dynamic = "force-dynamic";

/** A trace spans projects: like Sentry's trace endpoint, every project of the organisation is searched. */
export const GET = handle<{ org: string; traceId: string }>(async (_request, { org, traceId }) => {
  const { storage } = getRuntime();
  const organization = await resolveOrganization(storage, org);
  const projects = await listProjects(storage, organization);
  return json(serializeTrace(await getTrace(storage, projects, traceId), projects));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
