"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { privacyFormInput } from "@/app/_lib/privacy-form";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { updateOrganizationPrivacy } from "@/src/services/privacy/settings";

/**
 * Saves the organisation's data scrubbing settings through the service (org:write, as PUT
 * /api/0/organizations/{org}/; validated rules, audit entry); ingest's caches are dropped so the
 * next event of every project is scrubbed with them.
 */
export async function saveOrganizationPrivacyAction(organizationSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const runtime = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug, "org:write");
    await updateOrganizationPrivacy(runtime.storage, actor, access.organization, privacyFormInput(form));
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/security`);
    return { message: "Data scrubbing settings saved for every project. They apply to events received from now on." };
  });
}
