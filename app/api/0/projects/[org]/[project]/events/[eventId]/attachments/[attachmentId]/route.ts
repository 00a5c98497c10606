import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { downloadHeaders, serializeAttachment } from "@/src/api/serializers/attachment";
import { downloadAttachment, getAttachment } from "@/src/services/events/attachments";

export const dynamic = "force-dynamic";

/** The attachment's description, or with `?download=1` (Sentry's `download`) its bytes as a download. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/events/{eventId}/attachments/{attachmentId}/", {
  GET: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const download = new URL(request.url).searchParams.get("download");
    if (download === null || download === "0" || download === "false") {
      return json(serializeAttachment(await getAttachment(runtime.storage, project, params.eventId, params.attachmentId)));
    }
    const { attachment, bytes } = await downloadAttachment(runtime.storage, project, params.eventId, params.attachmentId);
    return new Response(new Uint8Array(bytes), { status: 200, headers: downloadHeaders(attachment) });
  },
});
