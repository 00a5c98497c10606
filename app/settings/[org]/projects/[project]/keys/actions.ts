"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { AppError } from "@/src/errors";
import { createKey, createKeyInput } from "@/src/services/keys/create-key";
import { revokeKey, updateKey, updateKeyInput } from "@/src/services/keys/update-key";
import { allowedDomainsInput, setAllowedDomains } from "@/src/services/projects/allowed-domains";
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

/** The project named by the page, after checking the caller holds `scope` there. */
async function keyPage(organizationSlug: string, projectSlug: string, scope: "project:write" | "project:admin") {
  const runtime = getRuntime();
  const { access, actor } = await actionAccess(organizationSlug, scope);
  const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
  if (!project) throw new AppError("not_found", "project not found");
  const refresh = () => {
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/projects/${project.slug}/keys`);
  };
  return { runtime, actor, project, refresh };
}

const optionalNumber = (value: FormDataEntryValue | null): number | null => {
  const text = String(value ?? "").trim();
  return text === "" ? null : Number(text);
};

/** Renames a key and sets or clears its rate limit (both fields empty: no limit). */
export async function updateKeyAction(organizationSlug: string, projectSlug: string, publicKey: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await keyPage(organizationSlug, projectSlug, "project:write");
    const count = optionalNumber(form.get("rateLimitCount"));
    const window = optionalNumber(form.get("rateLimitWindow"));
    const input = updateKeyInput.parse({
      name: String(form.get("label") ?? "").slice(0, 64),
      rateLimit: count === null && window === null ? null : { count, window },
    });
    const key = await updateKey(runtime.storage, actor, project, publicKey, input);
    refresh();
    return { message: `Key ${key.label || key.publicKey.slice(0, 14)} saved.` };
  });
}

/** Disables or enables a key: every process refuses a disabled key at once. */
export async function setKeyActiveAction(organizationSlug: string, projectSlug: string, publicKey: string, isActive: boolean, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await keyPage(organizationSlug, projectSlug, "project:write");
    const key = await updateKey(runtime.storage, actor, project, publicKey, { isActive });
    refresh();
    return { message: `Key ${key.label || key.publicKey.slice(0, 14)} ${isActive ? "enabled" : "disabled"}.` };
  });
}

/** Revokes (deletes) a key; SDKs using its DSN are refused from then on. */
export async function revokeKeyAction(organizationSlug: string, projectSlug: string, publicKey: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await keyPage(organizationSlug, projectSlug, "project:admin");
    await revokeKey(runtime.storage, actor, project, publicKey);
    refresh();
    return { message: "Key revoked." };
  });
}

/** The project's allowed domains, one per line (empty: refuse all browser traffic; `*`: any origin). */
export async function setAllowedDomainsAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await keyPage(organizationSlug, projectSlug, "project:write");
    const lines = String(form.get("allowedDomains") ?? "")
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "");
    const domains = await setAllowedDomains(runtime.storage, actor, project, allowedDomainsInput.parse(lines));
    refresh();
    return { message: domains.length === 0 ? "Browser SDK traffic is now refused." : `Allowed domains saved (${domains.length}).` };
  });
}
