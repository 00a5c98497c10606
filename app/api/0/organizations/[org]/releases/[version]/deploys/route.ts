import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeDeploy } from "@/src/api/serializers/release";
import { newDeployInput } from "@/src/services/releases/input";
import { addDeploy, listDeploys, requireRelease } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/releases/{version}/deploys/", {
  GET: async (_request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    return json((await listDeploys(runtime.storage, release)).map(serializeDeploy));
  },
  POST: async (request, params, { runtime, access }) => {
    const release = await requireRelease(runtime.storage, access, params.version);
    const input = await readJsonBody(request, newDeployInput);
    return json(serializeDeploy(await addDeploy(runtime.storage, access, release, input)), 201);
  },
});
