import { handle, json } from "@/src/api/handle";
import { serializeOrganization } from "@/src/api/serializers/organization";
import { getRuntime } from "@/src/runtime";
import { listOrganizations } from "@/src/services/projects/list-organizations";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<Record<string, never>>(async () => {
  const { storage, publicUrl } = getRuntime();
  const organizations = await listOrganizations(storage);
  return json(organizations.map((organization) => serializeOrganization(organization, publicUrl)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
