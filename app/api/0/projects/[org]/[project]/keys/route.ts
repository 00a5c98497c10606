import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeProjectKey } from "@/src/api/serializers/project-key";
import { createKey, createKeyInput } from "@/src/services/keys/create-key";
import { listKeys } from "@/src/services/keys/list-keys";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/keys/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const keys = await listKeys(runtime.storage, project);
    return json(keys.map((key) => serializeProjectKey(key, runtime.publicUrl)));
  },
  POST: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const input = await readJsonBody(request, createKeyInput);
    const key = await createKey(runtime.storage, actor, project, input);
    runtime.invalidateKeys();
    return json(serializeProjectKey(key, runtime.publicUrl), 201);
  },
});
