"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { parseIssueUpdate } from "@/src/services/issues/issue-update-input";
import { addIssueNote, applyIssueUpdate } from "@/src/services/issues/issue-workflow";
import { loadIssue } from "@/src/services/ui/issue-event";

/**
 * Issue page actions. The bound arguments come back from the browser, so they are checked again:
 * the session and event:write, the values by the same parser as the API (issue-update-input.ts),
 * the issue against the projects this person may see.
 */
async function update(organizationSlug: string, issueId: string, body: Record<string, unknown>): Promise<void> {
  const { storage } = getRuntime();
  const { access } = await actionAccess(organizationSlug, "event:write");
  const { issue, project } = await loadIssue(storage, access, issueId);
  await applyIssueUpdate(storage, { user: access.principal.user, organization: access.organization }, issue, project, parseIssueUpdate(body));
  revalidatePath(`/organizations/${access.organization.slug}/issues`, "layout");
}

/** Resolve / unresolve / ignore (with the activity entry). */
export async function setIssueStatus(organizationSlug: string, issueId: string, status: string, _previous: ActionState): Promise<ActionState> {
  return runAction(() => update(organizationSlug, issueId, { status }));
}

// Issue workflow: assignment ("" clears), bookmark, review, comments.
export async function assignIssue(organizationSlug: string, issueId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(() => update(organizationSlug, issueId, { assignedTo: String(form.get("assignedTo") ?? "") }));
}

export async function setIssueBookmark(organizationSlug: string, issueId: string, bookmarked: boolean, _previous: ActionState): Promise<ActionState> {
  return runAction(() => update(organizationSlug, issueId, { isBookmarked: bookmarked }));
}

export async function markIssueReviewed(organizationSlug: string, issueId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(() => update(organizationSlug, issueId, { inbox: false }));
}

export async function commentOnIssue(organizationSlug: string, issueId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access } = await actionAccess(organizationSlug, "event:write");
    const { issue } = await loadIssue(storage, access, issueId);
    await addIssueNote(storage, issue.id, access.principal.user.id, form.get("text"));
    revalidatePath(`/organizations/${access.organization.slug}/issues/${issue.id}`);
  });
}

// Ignore until… and resolve in the next release: the same bodies as Sentry's statusDetails.
const IGNORE_CHOICES: Record<string, Record<string, unknown>> = {
  "30m": { status: "ignored", statusDetails: { ignoreDuration: 30 } },
  "24h": { status: "ignored", statusDetails: { ignoreDuration: 1440 } },
  "10-events": { status: "ignored", statusDetails: { ignoreCount: 10 } },
  "100-events-hour": { status: "ignored", statusDetails: { ignoreCount: 100, ignoreWindow: 60 } },
  "10-users": { status: "ignored", statusDetails: { ignoreUserCount: 10 } },
  escalating: { status: "ignored", substatus: "archived_until_escalating" },
  "next-release": { status: "resolved", statusDetails: { inNextRelease: true } },
};

export async function ignoreOrResolveUntil(organizationSlug: string, issueId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const choice = String(form.get("until") ?? "");
    if (!Object.hasOwn(IGNORE_CHOICES, choice)) return { error: "Choose when the issue should come back" };
    await update(organizationSlug, issueId, IGNORE_CHOICES[choice]!);
  });
}
