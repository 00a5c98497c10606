import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeProject } from "@/src/api/serializers/project";
import { visibleProjects } from "@/src/services/accounts/access";
import { listProjects } from "@/src/services/projects/list-projects";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/projects/", {
  /** Only the projects the caller's teams own (all of them for owners and admins). */
  GET: async (_request, _params, { runtime, access }) => {
    const projects = visibleProjects(access, await listProjects(runtime.storage, access.organization));
    return json(projects.map((project) => serializeProject(project, access.organization, runtime.publicUrl)));
  },
});
