"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { privacyFormInput } from "@/app/_lib/privacy-form";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { updateProjectPrivacy } from "@/src/services/privacy/settings";
import { loadWorkspace } from "@/src/services/ui/workspace";

/**
 * Saves the project's data scrubbing settings through the service (project:write, validated rules,
 * audit entry); ingest's caches are dropped so the next event is scrubbed with them.
 */
export async function savePrivacyAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const runtime = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug, "project:write");
    const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
    if (!project) return { error: "project not found" };
    await updateProjectPrivacy(runtime.storage, actor, project, privacyFormInput(form));
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/projects/${project.slug}/security`);
    return { message: "Data scrubbing settings saved. They apply to events received from now on." };
  });
}
