"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { AppError } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import { quotasFromForm } from "@/src/services/quotas/form";
import { updateProjectQuotas } from "@/src/services/quotas/settings";
import { loadWorkspace } from "@/src/services/ui/workspace";

/** Saves the project's quotas (one field per category and window) and its spike protection switch. */
export async function saveProjectQuotasAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const runtime = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug, "project:write");
    const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
    if (!project) throw new AppError("not_found", "project not found");
    await updateProjectQuotas(runtime.storage, actor, project, { quotas: quotasFromForm(form), spikeProtection: form.get("spikeProtection") === "on" });
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/projects/${project.slug}/quotas`);
    return { message: "Quotas saved." };
  });
}
