import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeProjectKey } from "@/src/api/serializers/project-key";
import { getKey, revokeKey, updateKey, updateKeyInput } from "@/src/services/keys/update-key";

export const dynamic = "force-dynamic";

/** Sentry's ProjectKeyDetails; `{keyId}` is the key's public key, as Sentry's key id is. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/keys/{keyId}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    return json(serializeProjectKey(await getKey(runtime.storage, project, params.keyId), runtime.publicUrl));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const input = await readJsonBody(request, updateKeyInput);
    const key = await updateKey(runtime.storage, actor, project, params.keyId, input);
    runtime.invalidateKeys();
    return json(serializeProjectKey(key, runtime.publicUrl));
  },
  DELETE: async (_request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    await revokeKey(runtime.storage, actor, project, params.keyId);
    runtime.invalidateKeys();
    return new Response(null, { status: 204 });
  },
});
