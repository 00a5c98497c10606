import type { Metadata } from "next";
import { AppShell } from "@/components/app-shell";
import { FeedbackList } from "@/components/feedback/feedback-list";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { listFeedback } from "@/src/services/feedback/feedback";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "User feedback" };

const PAGE = 50;

export default async function FeedbackPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const workspace = await requireWorkspace(org, hrefWith(`/organizations/${org}/feedback`, search), search.project);
  const { organization, project } = workspace;
  const { storage } = getRuntime();
  const before = search.before && /^\d+$/.test(search.before) ? search.before : undefined;
  const list = project ? await listFeedback(storage, [project], PAGE, before) : [];
  const now = requestNow();
  const last = list.at(-1);
  return (
    <AppShell workspace={workspace} active="feedback" projectHref={(p) => `/organizations/${organization.slug}/feedback?project=${p.id}`}>
      <div className="space-y-4">
        <div>
          <h1 className="text-xl font-semibold">User feedback</h1>
          <p className="text-muted">What users wrote through the feedback widget, captureFeedback or a user report.</p>
        </div>
        <Card>
          {list.length === 0 ? (
            <EmptyState title="No feedback yet">
              <p>
                Add <code className="font-mono">Sentry.feedbackIntegration()</code> to the browser SDK, or call <code className="font-mono">Sentry.captureFeedback({"{ message }"})</code>.
              </p>
            </EmptyState>
          ) : (
            <FeedbackList items={list.map(({ feedback }) => feedback)} organizationSlug={organization.slug} now={now} />
          )}
        </Card>
        {list.length === PAGE && last && project ? (
          <a href={hrefWith(`/organizations/${organization.slug}/feedback`, { project: project.id, before: last.feedback.id })} className="text-sm text-accent hover:underline">
            Older feedback →
          </a>
        ) : null}
      </div>
    </AppShell>
  );
}
