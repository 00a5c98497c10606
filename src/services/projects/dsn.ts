import type { ProjectKey } from "../../model";

/** `{scheme}://{public_key}@{host}{path}/{project_id}` — the SDK derives the envelope URL from it. */
export function dsnFor(publicUrl: string, key: ProjectKey): string {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${key.publicKey}@${url.host}${path}/${key.projectId}`;
}
