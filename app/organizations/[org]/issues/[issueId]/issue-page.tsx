import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import { orNotFound } from "@/components/app-error";
import { AppShell, issuesHref } from "@/components/app-shell";
import { EventView } from "@/components/issue/event-view";
import { IssueFrame } from "@/components/issue/issue-frame";
import { getRuntime } from "@/src/runtime";
import { loadIssueEvent } from "@/src/services/ui/issue-event";
import { loadWorkspace } from "@/src/services/ui/workspace";

/** Shared by the issue page (latest event) and the page of one of its events. */
export async function IssueEventPage({ org, issueId, eventId }: { org: string; issueId: string; eventId?: string }) {
  const { storage } = getRuntime();
  const { view, workspace } = await orNotFound(async () => {
    const base = await loadWorkspace(storage, org);
    const loaded = await loadIssueEvent(storage, base.organization, issueId, eventId);
    return { view: loaded, workspace: { ...base, project: loaded.project } };
  });
  const now = requestNow();
  const slug = workspace.organization.slug;
  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(slug, p)}>
      <IssueFrame organizationSlug={slug} issue={view.issue} project={view.project} tab="details" now={now}>
        <EventView view={view} organizationSlug={slug} now={now} />
      </IssueFrame>
    </AppShell>
  );
}

export async function issueMetadata(issueId: string): Promise<Metadata> {
  const issue = await getRuntime().storage.issues.getById(issueId);
  return { title: issue ? `${issue.shortId} · ${issue.title}` : "Issue" };
}
