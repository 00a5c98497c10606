import type { Metadata } from "next";
import Link from "next/link";
import { orNotFound } from "@/components/app-error";
import { AppShell } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { firstValues, type RawSearchParams } from "@/components/search-params";
import { Card, KeyValueTable, Pill } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { AppError } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import { getFeedback } from "@/src/services/feedback/feedback";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Feedback" };

export default async function FeedbackDetailPage({ params, searchParams }: { params: Promise<{ org: string; feedbackId: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org, feedbackId } = await params;
  const search = firstValues(await searchParams);
  const workspace = await requireWorkspace(org, `/organizations/${org}/feedback/${feedbackId}`, search.project);
  const { organization, project, access } = workspace;
  const { storage } = getRuntime();
  const { feedback, issue } = await orNotFound(async () => {
    if (!project) throw new AppError("not_found", "feedback not found");
    return getFeedback(storage, access, project, feedbackId);
  });
  const mono = (value: string | null, testId: string) => (value ? <span className="font-mono text-xs" data-testid={testId}>{value}</span> : "—");
  return (
    <AppShell workspace={workspace} active="feedback" projectHref={(p) => `/organizations/${organization.slug}/feedback?project=${p.id}`}>
      <div className="space-y-4">
        <p className="text-xs text-muted">
          <Link href={`/organizations/${organization.slug}/feedback?project=${feedback.projectId}`} className="hover:underline">
            User feedback
          </Link>
        </p>
        <h1 className="flex items-center gap-3 text-xl font-semibold">
          <span data-testid="feedback-name">{feedback.name ?? "Anonymous"}</span>
          <Pill>{feedback.kind === "user_report" ? "User report" : "Feedback"}</Pill>
        </h1>
        <Card className="p-4">
          <p className="text-sm whitespace-pre-wrap" data-testid="feedback-message">
            {feedback.message}
          </p>
        </Card>
        <Card className="p-4">
          <KeyValueTable
            rows={[
              ["Email", feedback.email ? <span key="e" data-testid="feedback-email">{feedback.email}</span> : "—"],
              ["URL", feedback.url ? <span key="u" className="font-mono text-xs break-all" data-testid="feedback-url">{feedback.url}</span> : "—"],
              ["Received", formatAbsolute(feedback.dateCreated)],
              [
                "Issue",
                issue ? (
                  <Link key="i" href={`/organizations/${organization.slug}/issues/${issue.id}`} className="text-accent hover:underline" data-testid="feedback-issue">
                    {issue.shortId} · {issue.title}
                  </Link>
                ) : (
                  "—"
                ),
              ],
              ["Event", mono(feedback.associatedEventId, "feedback-event-id")],
              ["Trace", mono(feedback.traceId, "feedback-trace-id")],
              ["Replay", mono(feedback.replayId, "feedback-replay-id")],
              ["Environment", feedback.environment ?? "—"],
              ["Release", feedback.release ?? "—"],
              ["Source", feedback.source ?? "—"],
            ]}
          />
        </Card>
      </div>
    </AppShell>
  );
}
