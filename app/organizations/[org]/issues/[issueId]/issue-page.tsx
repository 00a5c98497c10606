import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import { orNotFound } from "@/components/app-error";
import { AppShell, issuesHref } from "@/components/app-shell";
import { EventView } from "@/components/issue/event-view";
import { IssueFrame } from "@/components/issue/issue-frame";
import { getRuntime } from "@/src/runtime";
import { loadIssue, loadIssueEvent } from "@/src/services/ui/issue-event";
import { currentPrincipal, requireWorkspace, safeNextPath } from "@/app/_lib/session";
import { accessToOrganization, hasScope, type Access } from "@/src/services/accounts/access";
// User feedback on the issue's events.
import { IssueFeedback } from "@/components/feedback/issue-feedback";
import { feedbackForIssue } from "@/src/services/feedback/feedback";

/** Shared by the issue page (latest event) and the page of one of its events. */
export async function IssueEventPage({ org, issueId, eventId }: { org: string; issueId: string; eventId?: string }) {
  const { storage } = getRuntime();
  const path = `/organizations/${org}/issues/${issueId}${eventId ? `/events/${eventId}` : ""}`;
  const base = await requireWorkspace(org, safeNextPath(path) ?? "/");
  const { view, workspace } = await orNotFound(async () => {
    const loaded = await loadIssueEvent(storage, base.access, issueId, eventId);
    return { view: loaded, workspace: { ...base, project: loaded.project } };
  });
  const now = requestNow();
  const slug = workspace.organization.slug;
  const feedback = await feedbackForIssue(storage, view.issue);
  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(slug, p)}>
      <IssueFrame organizationSlug={slug} issue={view.issue} project={view.project} tab="details" now={now} canWrite={canChangeIssues(base.access)}>
        <IssueFeedback items={feedback} organizationSlug={slug} now={now} />
        <EventView view={view} organizationSlug={slug} now={now} />
      </IssueFrame>
    </AppShell>
  );
}

export function canChangeIssues(access: Access): boolean {
  return hasScope(access, "event:write");
}

/** The title names the issue only for someone who may see it; metadata runs beside the page's own guard. */
export async function issueMetadata(org: string, issueId: string): Promise<Metadata> {
  const fallback: Metadata = { title: "Issue" };
  const principal = await currentPrincipal();
  if (!principal) return fallback;
  const { storage } = getRuntime();
  try {
    const access = await accessToOrganization(storage, principal, org);
    const { issue } = await loadIssue(storage, access, issueId);
    return { title: `${issue.shortId} · ${issue.title}` };
  } catch {
    return fallback;
  }
}
