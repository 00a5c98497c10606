import { readMultipart } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { acceptChunks, chunkUploadOptions, MAX_CHUNK_REQUEST_BYTES } from "@/src/services/artifacts/upload";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/chunk-upload/", {
  GET: async (_request, _params, { runtime, access }) => json(chunkUploadOptions(access.organization.slug, runtime.config.artifacts.maxBytes)),
  POST: async (request, _params, { runtime, access }) => {
    const parts = await readMultipart(request, MAX_CHUNK_REQUEST_BYTES);
    const chunks = parts.flatMap((part) => (part.filename === null ? [] : [{ field: part.field, filename: part.filename, bytes: part.bytes }]));
    await acceptChunks(runtime.storage, access, chunks);
    return new Response(null, { status: 200 });
  },
});
