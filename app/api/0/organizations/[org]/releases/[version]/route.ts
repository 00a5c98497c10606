import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { healthForRequest } from "@/src/api/release-health";
import { serializeRelease } from "@/src/api/serializers/release";
import { updateReleaseInput } from "@/src/services/releases/input";
import { deleteRelease, releaseDetail, requireRelease, updateRelease } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/releases/{version}/", {
  GET: async (request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    const detail = await releaseDetail(runtime.storage, access, release);
    return json(serializeRelease(detail, await healthForRequest(request, [detail])));
  },
  /** Finalize (`dateReleased`), archive (`status`), add projects, set commits (`commits` or `refs`). */
  PUT: async (request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    const input = await readJsonBody(request, updateReleaseInput);
    const updated = await updateRelease(runtime.storage, access, release, input);
    return json(serializeRelease(await releaseDetail(runtime.storage, access, updated)));
  },
  DELETE: async (_request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    await deleteRelease(runtime.storage, access, release);
    return new Response(null, { status: 204 });
  },
});
