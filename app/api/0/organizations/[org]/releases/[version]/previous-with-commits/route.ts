import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeCommit } from "@/src/api/serializers/release";
import { previousWithCommits, requireRelease } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/releases/{version}/previous-with-commits/", {
  /** `{}` when there is none: sentry-cli (`set-commits --local`) reads exactly that as "no previous release". */
  GET: async (_request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    const previous = await previousWithCommits(runtime.storage, release);
    if (!previous) return json({});
    return json({
      version: previous.release.version,
      dateCreated: new Date(previous.release.dateCreated).toISOString(),
      dateReleased: previous.release.dateReleased === null ? null : new Date(previous.release.dateReleased).toISOString(),
      url: previous.release.url,
      lastCommit: serializeCommit(previous.lastCommit),
    });
  },
});
