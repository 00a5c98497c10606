"use server";

import { revalidatePath } from "next/cache";
import { getRuntime } from "@/src/runtime";
import { resolveProject } from "@/src/services/organizations/resolve";

const MAX_LABEL = 64;

/** Adds a DSN key to the project; the ingest key cache is dropped so the key works at once. */
export async function createKeyAction(organizationSlug: string, projectSlug: string, form: FormData): Promise<void> {
  const runtime = getRuntime();
  const project = await resolveProject(runtime.storage, organizationSlug, projectSlug);
  const existing = await runtime.storage.keys.listByProject(project.id);
  const label = String(form.get("label") ?? "").trim().slice(0, MAX_LABEL) || `Key ${existing.length + 1}`;
  await runtime.storage.keys.create({ projectId: project.id, label });
  runtime.invalidateKeys();
  revalidatePath(`/settings/${organizationSlug}/projects/${projectSlug}/keys`);
}
