"use server";

import { revalidatePath } from "next/cache";
import { getRuntime } from "@/src/runtime";
import { updateIssueStatus, parseIssueStatus } from "@/src/services/issues/update-issue-status";
import { resolveOrganization } from "@/src/services/organizations/resolve";
import { loadIssue } from "@/src/services/ui/issue-event";

/**
 * Resolve / unresolve / ignore from the issue page. The bound arguments come back from the browser,
 * so they are checked again: the status against the closed set, the issue against the organisation.
 */
export async function setIssueStatus(organizationSlug: string, issueId: string, status: string): Promise<void> {
  const { storage } = getRuntime();
  const organization = await resolveOrganization(storage, organizationSlug);
  await loadIssue(storage, organization, issueId);
  await updateIssueStatus(storage, issueId, parseIssueStatus(status));
  revalidatePath(`/organizations/${organization.slug}/issues`, "layout");
}
