import { readJsonBody } from "@/src/api/body";
import { handle, json } from "@/src/api/handle";
import { serializeProjectKey } from "@/src/api/serializers/project-key";
import { getRuntime } from "@/src/runtime";
import { createKey, createKeyInput } from "@/src/services/keys/create-key";
import { listKeys } from "@/src/services/keys/list-keys";
import { resolveProject } from "@/src/services/organizations/resolve";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

type Params = { org: string; project: string };

export const GET = handle<Params>(async (_request, { org, project: slug }) => {
  const { storage, publicUrl } = getRuntime();
  const project = await resolveProject(storage, org, slug);
  const keys = await listKeys(storage, project);
  return json(keys.map((key) => serializeProjectKey(key, publicUrl)));
});

export const POST = handle<Params>(async (request, { org, project: slug }) => {
  const runtime = getRuntime();
  const project = await resolveProject(runtime.storage, org, slug);
  const input = await readJsonBody(request, createKeyInput);
  const key = await createKey(runtime.storage, project, input);
  runtime.invalidateKeys();
  return json(serializeProjectKey(key, runtime.publicUrl), 201);
});

export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
