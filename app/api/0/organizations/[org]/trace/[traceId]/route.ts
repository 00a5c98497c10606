import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeTrace } from "@/src/api/serializers/trace";
import { visibleProjects } from "@/src/services/accounts/access";
import { listProjects } from "@/src/services/projects/list-projects";
import { getTrace } from "@/src/services/telemetry/get-trace";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/trace/{traceId}/", {
  /**
   * A trace spans projects: like Sentry's trace endpoint, every project the caller may see is
   * searched, so a trace only in projects of other teams is "not found".
   */
  GET: async (_request, { traceId }, { runtime, access }) => {
    const projects = visibleProjects(access, await listProjects(runtime.storage, access.organization));
    return json(serializeTrace(await getTrace(runtime.storage, projects, traceId), projects));
  },
});
