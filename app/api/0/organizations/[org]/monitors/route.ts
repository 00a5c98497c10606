import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { requestedProjects } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeMonitor } from "@/src/api/serializers/monitor";
import { createMonitor, listMonitors, newMonitorInput } from "@/src/services/monitors/monitors";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/monitors/", {
  GET: async (request, _params, { runtime, access }) => {
    const projects = await requestedProjects(runtime.storage, request, access);
    const monitors = await listMonitors(runtime.storage, access, projects);
    return json(monitors.map(({ monitor, project }) => serializeMonitor(monitor, project)));
  },
  POST: async (request, _params, { runtime, access }) => {
    const input = await readJsonBody(request, newMonitorInput);
    const { monitor, project } = await createMonitor(runtime.storage, access, input);
    return json(serializeMonitor(monitor, project), 201);
  },
});
