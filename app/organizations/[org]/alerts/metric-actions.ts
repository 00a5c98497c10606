"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { AppError } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import { metricRuleFromForm, type MetricFormValues } from "@/src/services/alerts/metric-form";
import { createMetricRule, deleteMetricRule, updateMetricRule } from "@/src/services/alerts/metric-rules";
import { loadWorkspace } from "@/src/services/ui/workspace";

// Metric alerts (issue 34 item 2): the editor's actions, with the API's scopes (org:write or alerts:write).
const WRITE = ["org:write", "alerts:write"] as const;

async function metricAlertsOf(organizationSlug: string, projectSlug: string) {
  const runtime = getRuntime();
  const { access, actor } = await actionAccess(organizationSlug, WRITE);
  const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
  if (!project) throw new AppError("not_found", "project not found");
  return { runtime, access, actor, project, base: `/organizations/${access.organization.slug}/alerts/${project.slug}` };
}

function valuesOf(form: FormData): MetricFormValues {
  const values: MetricFormValues = {};
  for (const [name, value] of form.entries()) if (typeof value === "string") values[name] = value;
  return values;
}

/** Creates (ruleId null) or replaces a metric rule from the editor; a new rule's page opens after. */
export async function saveMetricRuleAction(organizationSlug: string, projectSlug: string, ruleId: string | null, _previous: ActionState, form: FormData): Promise<ActionState> {
  let created: string | null = null;
  const state = await runAction(async () => {
    const { runtime, access, actor, project, base } = await metricAlertsOf(organizationSlug, projectSlug);
    const fields = metricRuleFromForm(valuesOf(form), project.slug);
    if (ruleId === null) {
      created = `${base}/metric/${(await createMetricRule(runtime.storage, actor, access, project, fields)).id}`;
      runtime.kickAlerts();
      return;
    }
    await updateMetricRule(runtime.storage, actor, access, ruleId, project, fields);
    runtime.kickAlerts();
    revalidatePath(`${base}/metric/${ruleId}`);
    return { message: "Rule saved; it is judged afresh from ok." };
  });
  if (created) redirect(created);
  return state;
}

export async function deleteMetricRuleAction(organizationSlug: string, projectSlug: string, ruleId: string, _previous: ActionState, _form: FormData): Promise<ActionState> {
  const state = await runAction(async () => {
    const { runtime, access, actor } = await metricAlertsOf(organizationSlug, projectSlug);
    await deleteMetricRule(runtime.storage, actor, access, ruleId);
  });
  if (!state.error) redirect(`/organizations/${organizationSlug}/alerts/${projectSlug}`);
  return state;
}
