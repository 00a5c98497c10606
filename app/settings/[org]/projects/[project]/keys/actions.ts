"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { createKey, createKeyInput } from "@/src/services/keys/create-key";
import { loadWorkspace } from "@/src/services/ui/workspace";

/**
 * Adds a DSN key through the createKey service (project:write, audit entry); the ingest key cache is
 * dropped so the key works at once.
 */
export async function createKeyAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const runtime = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug, "project:write");
    const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
    if (!project) return { error: "project not found" };
    const label = String(form.get("label") ?? "").trim();
    const input = createKeyInput.parse({ name: label === "" ? null : label.slice(0, 64) });
    const key = await createKey(runtime.storage, actor, project, input);
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/projects/${project.slug}/keys`);
    return { message: `Key ${key.label || key.publicKey.slice(0, 14)} created.` };
  });
}
