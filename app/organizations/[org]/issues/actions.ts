"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { createSavedSearch, deleteSavedSearch, newSavedSearchInput } from "@/src/services/issues/saved-searches";
import { AppError } from "@/src/errors";

/** Saves the list's current search; "shared" needs org:write (checked by the service). */
export async function saveSearch(organizationSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access } = await actionAccess(organizationSlug);
    const parsed = newSavedSearchInput.safeParse({
      name: form.get("name"),
      query: form.get("query") ?? "",
      sort: form.get("sort") || undefined,
      visibility: form.get("shared") === "on" ? "organization" : "owner",
    });
    if (!parsed.success) throw new AppError("bad_request", "invalid saved search", parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
    const saved = await createSavedSearch(storage, access, parsed.data);
    revalidatePath(`/organizations/${access.organization.slug}/issues`);
    return { message: `Saved "${saved.name}"` };
  });
}

export async function deleteSearch(organizationSlug: string, id: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access } = await actionAccess(organizationSlug);
    await deleteSavedSearch(storage, access, id);
    revalidatePath(`/organizations/${access.organization.slug}/issues`);
  });
}
