"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { AppError } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import { queueTestNotification, setEmailFor } from "@/src/services/alerts/deliveries";
import { ruleFromForm, type RuleFormValues } from "@/src/services/alerts/rule-form";
import { createRule, deleteRule, getRule, setRuleMuted, updateRule } from "@/src/services/alerts/rules";
import { loadWorkspace } from "@/src/services/ui/workspace";

async function alertsOf(organizationSlug: string, projectSlug: string, scope: "project:read" | "project:write") {
  const runtime = getRuntime();
  const { access, actor } = await actionAccess(organizationSlug, scope);
  const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
  if (!project) throw new AppError("not_found", "project not found");
  const base = `/organizations/${access.organization.slug}/alerts/${project.slug}`;
  return { runtime, access, actor, project, base };
}

function valuesOf(form: FormData): RuleFormValues {
  const values: RuleFormValues = {};
  for (const [name, value] of form.entries()) if (typeof value === "string") values[name] = value;
  return values;
}

/** Creates (ruleId null) or replaces a rule from the editor; a new rule's page opens after. */
export async function saveRuleAction(organizationSlug: string, projectSlug: string, ruleId: string | null, _previous: ActionState, form: FormData): Promise<ActionState> {
  let created: string | null = null;
  const state = await runAction(async () => {
    const { runtime, access, actor, project, base } = await alertsOf(organizationSlug, projectSlug, "project:write");
    const fields = ruleFromForm(valuesOf(form));
    if (ruleId === null) {
      created = `${base}/${(await createRule(runtime.storage, actor, access.organization, project, fields)).id}`;
      return;
    }
    await updateRule(runtime.storage, actor, access.organization, project, ruleId, fields);
    revalidatePath(`${base}/${ruleId}`);
    return { message: "Rule saved." };
  });
  if (created) redirect(created);
  return state;
}

export async function testRuleAction(organizationSlug: string, projectSlug: string, ruleId: string, _previous: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, access, project, base } = await alertsOf(organizationSlug, projectSlug, "project:write");
    const rule = await getRule(runtime.storage, project, ruleId);
    const queued = await queueTestNotification(runtime.storage, runtime.publicUrl, access.organization, project, rule);
    runtime.kickAlerts();
    revalidatePath(`${base}/${ruleId}`);
    if (queued.length === 0) return { error: "This rule reaches nobody: no recipient has email on, and it has no webhook." };
    return { message: `Test queued for ${queued.map((q) => q.target).join(", ")}: see the delivery log.` };
  });
}

export async function muteRuleAction(organizationSlug: string, projectSlug: string, ruleId: string, muted: boolean, _previous: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, access, actor, project, base } = await alertsOf(organizationSlug, projectSlug, "project:write");
    await setRuleMuted(runtime.storage, actor, access.organization, project, ruleId, muted);
    revalidatePath(`${base}/${ruleId}`);
    return { message: muted ? "Rule muted: it sends nothing until unmuted." : "Rule unmuted." };
  });
}

export async function deleteRuleAction(organizationSlug: string, projectSlug: string, ruleId: string, _previous: ActionState, _form: FormData): Promise<ActionState> {
  const state = await runAction(async () => {
    const { runtime, access, actor, project } = await alertsOf(organizationSlug, projectSlug, "project:write");
    await deleteRule(runtime.storage, actor, access.organization, project, ruleId);
  });
  if (!state.error) redirect(`/organizations/${organizationSlug}/alerts/${projectSlug}`);
  return state;
}

/** Personal setting: alert email for this project on or off, for the signed-in person only. */
export async function setMyEmailAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, access, project, base } = await alertsOf(organizationSlug, projectSlug, "project:read");
    const on = form.get("email") === "on";
    await setEmailFor(runtime.storage, access.principal.user.id, project, on);
    revalidatePath(base);
    return { message: on ? "You get alert email for this project." : "You get no alert email for this project." };
  });
}
