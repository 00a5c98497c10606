import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { healthForRequest } from "@/src/api/release-health";
import { serializeRelease } from "@/src/api/serializers/release";
import { newReleaseInput } from "@/src/services/releases/input";
import { createRelease, listReleases, releaseDetail } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/releases/", {
  GET: async (request, _params, { runtime, access }) => {
    const query = new URL(request.url).searchParams.get("query") ?? undefined;
    const summaries = await listReleases(runtime.storage, access, { query, limit: 1000 });
    const health = await healthForRequest(request, summaries);
    return json(summaries.map((summary) => serializeRelease(summary, health)));
  },
  /** 201 when made, 208 when the release existed (its projects are added), as in Sentry. */
  POST: async (request, _params, { runtime, access }) => {
    const input = await readJsonBody(request, newReleaseInput);
    const { release, created } = await createRelease(runtime.storage, access, input);
    return json(serializeRelease(await releaseDetail(runtime.storage, access, release)), created ? 201 : 208);
  },
});
