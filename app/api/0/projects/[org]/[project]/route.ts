import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializePrivacy } from "@/src/api/serializers/privacy";
import { serializeProject } from "@/src/api/serializers/project";
import { projectPrivacy, privacyInput, updateProjectPrivacy } from "@/src/services/privacy/settings";

export const dynamic = "force-dynamic";

/** A project's details with its data scrubbing settings; PUT changes those settings (Sentry's field names). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const settings = await projectPrivacy(runtime.storage, project);
    return json(Object.assign(serializeProject(project, access.organization, runtime.publicUrl), serializePrivacy(settings)));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const settings = await updateProjectPrivacy(runtime.storage, actor, project, await readJsonBody(request, privacyInput));
    runtime.invalidateKeys();
    return json(Object.assign(serializeProject(project, access.organization, runtime.publicUrl), serializePrivacy(settings)));
  },
});
