import { readJsonBody } from "@/src/api/body";
import { apiRoutes } from "@/src/api/route";
import { setSpikeProtection, spikeProtectionsInput } from "@/src/services/quotas/settings";

export const dynamic = "force-dynamic";

/** Sentry's spike-protections: `{"projects": [slugs]}` or `{"projects": ["$all"]}` turns it on (POST) or off (DELETE); 201 / 204. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/spike-protections/", {
  POST: async (request, _params, { runtime, access, actor }) => {
    await setSpikeProtection(runtime.storage, access, actor, await readJsonBody(request, spikeProtectionsInput), true);
    runtime.invalidateKeys();
    return new Response(null, { status: 201 });
  },
  DELETE: async (request, _params, { runtime, access, actor }) => {
    await setSpikeProtection(runtime.storage, access, actor, await readJsonBody(request, spikeProtectionsInput), false);
    runtime.invalidateKeys();
    return new Response(null, { status: 204 });
  },
});
