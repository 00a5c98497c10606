"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { updateIssueStatus, parseIssueStatus } from "@/src/services/issues/update-issue-status";
import { loadIssue } from "@/src/services/ui/issue-event";

/**
 * Resolve / unresolve / ignore from the issue page. The bound arguments come back from the browser,
 * so they are checked again: the session and event:write, the status against the closed set, the
 * issue against the projects this person may see.
 */
export async function setIssueStatus(organizationSlug: string, issueId: string, status: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access } = await actionAccess(organizationSlug, "event:write");
    await loadIssue(storage, access, issueId);
    await updateIssueStatus(storage, issueId, parseIssueStatus(status));
    revalidatePath(`/organizations/${access.organization.slug}/issues`, "layout");
  });
}
