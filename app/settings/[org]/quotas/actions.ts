"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { quotasFromForm } from "@/src/services/quotas/form";
import { updateOrganizationQuotas } from "@/src/services/quotas/settings";

/** Saves the organisation's quotas (one field per category and window). */
export async function saveOrganizationQuotasAction(organizationSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const runtime = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug, "org:write");
    await updateOrganizationQuotas(runtime.storage, actor, access.organization, { quotas: quotasFromForm(form) });
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/quotas`);
    return { message: "Quotas saved." };
  });
}
