import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { assembleBundle, assembleInput } from "@/src/services/artifacts/upload";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/artifactbundle/assemble/", {
  /**
   * As in Sentry, the outcome is in the body (`state`: ok, not_found with `missingChunks`, error with
   * `detail`) with status 200; a malformed request is a 400.
   */
  POST: async (request, _params, { runtime, access }) => {
    const input = await readJsonBody(request, assembleInput);
    return json(await assembleBundle(runtime.storage, access, input, runtime.config.artifacts.maxBytes));
  },
});
