import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeAttachment } from "@/src/api/serializers/attachment";
import { listAttachments } from "@/src/services/events/attachments";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/events/{eventId}/attachments/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json((await listAttachments(runtime.storage, project, params.eventId)).map(serializeAttachment));
  },
});
