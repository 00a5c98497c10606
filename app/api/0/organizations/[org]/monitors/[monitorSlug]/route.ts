import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeMonitor } from "@/src/api/serializers/monitor";
import { deleteMonitor, getMonitor, updateMonitor, updateMonitorInput } from "@/src/services/monitors/monitors";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/monitors/{monitorSlug}/", {
  GET: async (_request, params, { runtime, access }) => {
    const { monitor, project } = await getMonitor(runtime.storage, access, params.monitorSlug);
    return json(serializeMonitor(monitor, project));
  },
  PUT: async (request, params, { runtime, access }) => {
    const input = await readJsonBody(request, updateMonitorInput);
    const { monitor, project } = await updateMonitor(runtime.storage, access, params.monitorSlug, input);
    return json(serializeMonitor(monitor, project));
  },
  /** 202 as in Sentry. */
  DELETE: async (_request, params, { runtime, access }) => {
    await deleteMonitor(runtime.storage, access, params.monitorSlug);
    return new Response(null, { status: 202 });
  },
});
