"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { createMonitor, deleteMonitor, newMonitorInput, updateMonitor } from "@/src/services/monitors/monitors";

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const minutesOf = (value: string) => (value === "" ? null : Number(value));

/** Creates a monitor from the Crons page's form (project:write), as POST /monitors/ does. */
export async function createMonitorAction(organizationSlug: string, projectId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { access } = await actionAccess(organizationSlug, "project:write");
    const type = text(form, "scheduleType") === "interval" ? "interval" : "crontab";
    const parsed = newMonitorInput.safeParse({
      project: projectId,
      name: text(form, "name"),
      ...(text(form, "slug") ? { slug: text(form, "slug") } : {}),
      config: {
        schedule_type: type,
        schedule: type === "crontab" ? text(form, "schedule") : [Number(text(form, "intervalValue")), text(form, "intervalUnit")],
        checkin_margin: minutesOf(text(form, "checkinMargin")),
        max_runtime: minutesOf(text(form, "maxRuntime")),
        timezone: text(form, "timezone") || null,
      },
    });
    if (!parsed.success) {
      return { error: parsed.error.issues.map((issue) => `${issue.path.join(".") || "form"}: ${issue.message}`).join("; ") };
    }
    const { monitor } = await createMonitor(getRuntime().storage, access, parsed.data);
    revalidatePath(`/organizations/${access.organization.slug}/crons`);
    return { message: `Monitor ${monitor.slug} created: it is expected from its next scheduled time on.` };
  });
}

/** Disables or re-enables a monitor (a disabled one is not expected and its check-ins are refused). */
export async function setMonitorStatusAction(organizationSlug: string, slug: string, status: "active" | "disabled", _previous: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { access } = await actionAccess(organizationSlug, "project:write");
    await updateMonitor(getRuntime().storage, access, slug, { status });
    revalidatePath(`/organizations/${access.organization.slug}/crons/${encodeURIComponent(slug)}`);
    return { message: status === "active" ? "Monitor enabled: expected from its next scheduled time." : "Monitor disabled." };
  });
}

/** Deletes a monitor with its check-ins, then opens the Crons list. */
export async function deleteMonitorAction(organizationSlug: string, slug: string, _previous: ActionState, _form: FormData): Promise<ActionState> {
  const result = await runAction(async () => {
    const { access } = await actionAccess(organizationSlug, "project:write");
    await deleteMonitor(getRuntime().storage, access, slug);
  });
  if (result.error) return result;
  redirect(`/organizations/${organizationSlug}/crons`);
}
