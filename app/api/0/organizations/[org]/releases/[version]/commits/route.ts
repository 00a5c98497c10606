import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeCommit } from "@/src/api/serializers/release";
import { listCommits, requireRelease } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/releases/{version}/commits/", {
  GET: async (_request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    return json((await listCommits(runtime.storage, release)).map(serializeCommit));
  },
});
