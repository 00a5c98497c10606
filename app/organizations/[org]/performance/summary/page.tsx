import type { Metadata } from "next";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { formatAbsolute, formatCount } from "@/components/format";
import { performanceHref, traceHref } from "@/components/performance/links";
import { Ms, Rate } from "@/components/performance/perf-bits";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState, LevelBadge, Section } from "@/components/ui";
import { Chart } from "@/components/ui/chart";
import { intervalFor, parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { getRuntime } from "@/src/runtime";
import { transactionSummary } from "@/src/services/telemetry/performance";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Transaction summary" };

/**
 * One transaction of a project: its figures, duration histogram, p50/p95 over time, the slowest
 * samples (each opening its trace), the span operations that take most self time, and the issues
 * of errors captured in its traces.
 */
export default async function TransactionSummaryPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/performance/summary`;
  const workspace = await requireWorkspace(org, hrefWith(path, search), search.project);
  const { organization, project } = workspace;
  const name = search.transaction ?? "";
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : {};
  const environment = search.environment || undefined;
  const release = search.release || undefined;
  const interval = parsed.ok ? intervalFor(parsed.end - parsed.start) : 3_600_000;
  const summary = project && parsed.ok && name
    ? await transactionSummary(getRuntime().storage, [project], { start: parsed.start, end: parsed.end, environment, release }, name, interval)
    : null;
  const stats = summary?.stats ?? null;
  const back = hrefWith(`/organizations/${organization.slug}/performance`, { project: project?.id, environment, release, ...rangeParams });

  return (
    <AppShell workspace={workspace} active="performance" projectHref={(p) => performanceHref(organization.slug, p.id)}>
      <div className="space-y-4">
        <div>
          <p className="text-xs text-muted">
            <Link href={back} className="hover:underline">
              Performance
            </Link>{" "}
            › Transaction summary
          </p>
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]" data-testid="summary-name">
            {name || "No transaction given"}
          </h1>
          {project ? <p className="text-sm text-muted">{project.name}{environment ? ` · ${environment}` : ""}{release ? ` · ${release}` : ""}</p> : null}
        </div>
        {summary?.approximate ? (
          <p className="text-xs text-muted" data-testid="approximate-note">
            Percentiles over this range come from hourly sketches and are within 1 % of the exact values; counts and rates are exact.
          </p>
        ) : null}
        <div className="flex justify-end">
          <TimeRangePicker path={path} keep={{ project: project?.id, transaction: name, environment, release }} range={parsed.ok ? parsed.range : null} now={now} />
        </div>
        {!parsed.ok ? (
          <Card className="p-4"><p role="alert" className="text-sm">{parsed.message}</p></Card>
        ) : !summary || !stats ? (
          <Card><EmptyState title="No samples of this transaction in the time range" /></Card>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8" data-testid="summary-stats">
              {([
                ["Count", <span key="c" data-testid="stat-count" data-value={stats.count}>{formatCount(stats.count)}</span>],
                ["TPM", <span key="t" data-testid="stat-tpm" data-value={stats.throughput}>{stats.throughput.toFixed(2)}</span>],
                ["p50", <Ms key="p50" value={stats.p50} testId="stat-p50" />],
                ["p75", <Ms key="p75" value={stats.p75} testId="stat-p75" />],
                ["p95", <Ms key="p95" value={stats.p95} testId="stat-p95" />],
                ["p99", <Ms key="p99" value={stats.p99} testId="stat-p99" />],
                ["Failure rate", <Rate key="f" value={stats.failureRate} testId="stat-failure-rate" />],
                ["Op", <span key="o" className="font-mono text-sm">{stats.op}</span>],
              ] as const).map(([label, value]) => (
                <Card key={label} className="flex flex-col-reverse px-3 py-2">
                  <dt className="text-xs text-muted">{label}</dt>
                  <dd className="text-lg font-semibold">{value}</dd>
                </Card>
              ))}
            </dl>
            <div className="grid gap-4 lg:grid-cols-2">
              <Card className="p-4">
                <h2 className="mb-2 text-sm font-semibold">Duration histogram <span className="font-normal text-subtle">· {summary.histogram.width} ms buckets</span></h2>
                <table className="w-full text-xs" data-testid="histogram">
                  <tbody>
                    {summary.histogram.counts.map((count, i) => {
                      const max = Math.max(...summary.histogram.counts, 1);
                      const last = i === summary.histogram.counts.length - 1;
                      return (
                        <tr key={i} data-testid="histogram-bucket" data-count={count}>
                          <th scope="row" className="w-28 py-0.5 pr-2 text-left font-normal text-muted tabular-nums">
                            {i * summary.histogram.width}{last ? "+" : `–${(i + 1) * summary.histogram.width}`} ms
                          </th>
                          <td className="py-0.5">
                            <span className="inline-block h-3 rounded-sm bg-accent align-middle" style={{ width: `${(count / max) * 85}%`, minWidth: count > 0 ? 2 : 0 }} />
                            <span className="ml-1 text-subtle tabular-nums">{count}</span>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </Card>
              <Card className="p-4">
                <h2 className="mb-2 text-sm font-semibold">p50 and p95 over time <span className="font-normal text-subtle">· ms</span></h2>
                <Chart
                  x={summary.series.x}
                  series={[
                    { label: "p50", color: "#0891b2", values: summary.series.p50.map((value) => value ?? 0) },
                    { label: "p95", color: "#d97706", values: summary.series.p95.map((value) => value ?? 0) },
                  ]}
                  title={`p50 and p95 of ${name} over time`}
                />
              </Card>
            </div>
            <Section title="Slowest samples" id="slowest">
              <Card className="overflow-x-auto">
                <table className="w-full text-sm" data-testid="slowest-samples">
                  <tbody>
                    {summary.slowest.map((sample) => (
                      <tr key={`${sample.traceId}:${sample.spanId}`} className="border-b border-line last:border-b-0" data-testid="slow-sample">
                        <td className="px-4 py-2"><Ms value={sample.duration} /></td>
                        <td className="px-4 py-2">
                          <Link href={traceHref(organization.slug, sample.traceId)} className="font-mono text-xs text-accent hover:underline">
                            trace {sample.traceId.slice(0, 8)}
                          </Link>
                        </td>
                        <td className="px-4 py-2 text-xs text-muted">{sample.failed ? "failed" : "ok"}</td>
                        <td className="px-4 py-2 text-xs text-muted">{sample.release || "—"}</td>
                        <td className="px-4 py-2 text-xs text-muted">{formatAbsolute(sample.end)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Card>
            </Section>
            <Section title="Span operations by self time" id="span-ops" aside={<span className="text-xs text-subtle">from {summary.spanOpsFrom} spans of its most recent traces</span>}>
              <Card className="overflow-x-auto">
                {summary.spanOps.length === 0 ? (
                  <EmptyState title="No child spans of this transaction in the time range" />
                ) : (
                  <table className="w-full text-sm" data-testid="span-ops">
                    <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                      <tr>
                        <th scope="col" className="px-4 py-2">Op</th>
                        <th scope="col" className="px-4 py-2">Description</th>
                        <th scope="col" className="px-4 py-2 text-right">Spans</th>
                        <th scope="col" className="px-4 py-2 text-right">Total self time</th>
                        <th scope="col" className="px-4 py-2 text-right">Average self time</th>
                      </tr>
                    </thead>
                    <tbody>
                      {summary.spanOps.map((op) => (
                        <tr key={`${op.op}:${op.description}`} className="border-b border-line last:border-b-0" data-testid="span-op" data-op={op.op}>
                          <td className="px-4 py-2 font-mono text-xs">{op.op}</td>
                          <td className="max-w-[28rem] truncate px-4 py-2 font-mono text-xs" title={op.description}>{op.description}</td>
                          <td className="px-4 py-2 text-right tabular-nums">{op.count}</td>
                          <td className="px-4 py-2 text-right"><Ms value={op.totalSelf} /></td>
                          <td className="px-4 py-2 text-right"><Ms value={op.averageSelf} /></td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </Card>
            </Section>
            <Section title="Related issues" id="related-issues" aside={<span className="text-xs text-subtle">errors captured in its recent traces</span>}>
              <Card className="overflow-x-auto">
                {summary.relatedIssues.length === 0 ? (
                  <EmptyState title="No errors were captured in its traces" />
                ) : (
                  <ul data-testid="related-issues">
                    {summary.relatedIssues.map(({ issue, events }) => (
                      <li key={issue.id} className="flex items-center gap-3 border-b border-line px-4 py-2 last:border-b-0">
                        <LevelBadge level={issue.level} />
                        <Link href={`/organizations/${organization.slug}/issues/${issue.id}`} className="truncate font-medium text-accent hover:underline">
                          {issue.title}
                        </Link>
                        <span className="text-xs text-subtle">{issue.shortId}</span>
                        <span className="ml-auto text-xs text-muted tabular-nums">{events} in these traces</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            </Section>
          </>
        )}
      </div>
    </AppShell>
  );
}
