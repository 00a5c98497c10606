import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { appErrorOf } from "@/components/app-error";
import { formatAbsolute } from "@/components/format";
import { performanceHref } from "@/components/performance/links";
import { traceRows } from "@/components/performance/trace-rows";
import { formatDuration } from "@/components/performance/format-duration";
import { TraceWaterfall } from "@/components/performance/trace-waterfall";
import { Card, Section } from "@/components/ui";
import { getRuntime } from "@/src/runtime";
import { getTrace, type Trace } from "@/src/services/telemetry/get-trace";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Trace" };

/**
 * One trace across every project the viewer may see: the waterfall of its spans (browser page load →
 * fetch → server transaction → database …), the errors captured inside it pinned to their spans, and
 * the errors whose span was not received listed below.
 */
export default async function TracePage({ params }: { params: Promise<{ org: string; traceId: string }> }) {
  const { org, traceId } = await params;
  const workspace = await requireWorkspace(org, `/organizations/${org}/traces/${encodeURIComponent(traceId)}`);
  const { organization } = workspace;
  let trace: Trace;
  try {
    trace = await getTrace(getRuntime().storage, workspace.projects, traceId);
  } catch (error) {
    const problem = appErrorOf(error);
    if (problem?.code === "not_found") notFound();
    if (problem?.code !== "bad_request") throw error;
    return (
      <AppShell workspace={workspace} active="performance" projectHref={(p) => performanceHref(organization.slug, p.id)}>
        <Card className="p-4">
          <p role="alert" className="text-sm" data-testid="trace-problem">
            {problem.message}
          </p>
        </Card>
      </AppShell>
    );
  }
  const rows = traceRows(trace, workspace.projects);
  const root = rows.rows.find((row) => row.depth === 0);
  const unpinned = rows.errors.filter((error) => error.spanId === null || !rows.rows.some((row) => row.spanId === error.spanId));
  return (
    <AppShell workspace={workspace} active="performance" projectHref={(p) => performanceHref(organization.slug, p.id)}>
      <div className="space-y-4">
        <div>
          <p className="text-xs text-muted">
            <Link href={performanceHref(organization.slug)} className="hover:underline">
              Performance
            </Link>{" "}
            › Trace
          </p>
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{root ? root.segmentName ?? root.name : "Trace"}</h1>
          <p className="text-sm text-muted">
            <span className="font-mono" data-testid="trace-id">
              {trace.traceId}
            </span>{" "}
            · {formatAbsolute(rows.start)} · {formatDuration(rows.end - rows.start)} · {rows.errors.length} {rows.errors.length === 1 ? "error" : "errors"}
          </p>
        </div>
        {rows.rows.length > 0 ? (
          <TraceWaterfall trace={rows} organizationSlug={organization.slug} />
        ) : (
          <Card className="p-4 text-sm text-muted">No spans of this trace were received; its errors are below.</Card>
        )}
        <Section title="Errors in this trace" id="trace-errors">
          {rows.errors.length === 0 ? (
            <Card className="p-4 text-sm text-muted">No error was captured inside this trace.</Card>
          ) : (
            <Card className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="trace-errors">
                <tbody>
                  {rows.errors.map((error) => (
                    <tr key={error.eventId} className="border-b border-line last:border-b-0" data-testid="trace-error" data-span-id={error.spanId ?? ""}>
                      <td className="px-4 py-2">
                        <Link href={`/organizations/${organization.slug}/issues/${error.issueId}/events/${error.eventId}`} className="font-medium text-accent hover:underline">
                          {error.title}
                        </Link>
                        <span className="ml-2 text-xs text-subtle">{error.shortId}</span>
                      </td>
                      <td className="px-4 py-2 text-xs text-muted">{error.projectSlug}</td>
                      <td className="px-4 py-2 text-xs text-muted">
                        {error.spanId === null ? "no span" : unpinned.includes(error) ? `span ${error.spanId} (not received)` : `span ${error.spanId}`}
                      </td>
                      <td className="px-4 py-2 text-xs text-muted">{formatAbsolute(error.timestamp)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          )}
        </Section>
      </div>
    </AppShell>
  );
}
