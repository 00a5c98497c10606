import type { Metadata } from "next";
import { AppShell } from "@/components/app-shell";
import { performanceHref } from "@/components/performance/links";
import { PerformanceTabs } from "@/components/performance/perf-bits";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState } from "@/components/ui";
import { Chart } from "@/components/ui/chart";
import { FilterBar } from "@/components/ui/filter-bar";
import { intervalFor, parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { getRuntime } from "@/src/runtime";
import { VITAL_THRESHOLDS, type WebVitalName } from "@/src/model";
import { WEB_VITAL_ORDER, webVitalsReport, type VitalRating } from "@/src/services/telemetry/performance";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Web vitals" };

const LABELS: Record<WebVitalName, string> = { lcp: "LCP", inp: "INP", cls: "CLS", fcp: "FCP", ttfb: "TTFB" };
const COLORS: Record<WebVitalName, string> = { lcp: "#6366f1", inp: "#db2777", cls: "#0d9488", fcp: "#d97706", ttfb: "#0891b2" };
const RATING_STYLE: Record<VitalRating, string> = {
  good: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
  "needs-improvement": "bg-amber-100 text-amber-800 dark:bg-amber-500/20 dark:text-amber-300",
  poor: "bg-red-100 text-red-800 dark:bg-red-500/20 dark:text-red-300",
};
const RATING_LABEL: Record<VitalRating, string> = { good: "good", "needs-improvement": "needs improvement", poor: "poor" };

const formatVital = (vital: WebVitalName, value: number) => (VITAL_THRESHOLDS[vital].unit === "ms" ? `${Math.round(value)} ms` : value.toFixed(3));

/**
 * LCP, INP, CLS, FCP and TTFB per page at p75, rated with web.dev's thresholds, worst pages first,
 * with the p75 of each over time — from web-vital spans and legacy transactions' measurements.
 */
export default async function WebVitalsPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/performance/vitals`;
  const workspace = await requireWorkspace(org, hrefWith(path, search), search.project);
  const { organization, project } = workspace;
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : {};
  const environment = search.environment || undefined;
  const release = search.release || undefined;
  const keep = { project: project?.id, environment, release, ...rangeParams };
  const interval = parsed.ok ? intervalFor(parsed.end - parsed.start) : 3_600_000;
  const report = project && parsed.ok
    ? await webVitalsReport(getRuntime().storage, [project], { start: parsed.start, end: parsed.end, environment, release }, interval)
    : null;

  return (
    <AppShell workspace={workspace} active="performance" projectHref={(p) => hrefWith(performanceHref(organization.slug) + "/vitals", { project: p.id })}>
      <div className="space-y-4">
        <div>
          <h1 className="text-xl font-semibold">Performance</h1>
          <p className="text-muted">Web vitals of {project?.name ?? "this organization"} at the 75th percentile, rated with web.dev&apos;s thresholds.</p>
        </div>
        <PerformanceTabs base={`/organizations/${org}/performance`} active="vitals" keep={keep} />
        {report?.approximate ? (
          <p className="text-xs text-muted" data-testid="approximate-note">
            Percentiles over this range come from hourly sketches and are within 1 % of the exact values; counts and rates are exact.
          </p>
        ) : null}
        {project ? (
          <FilterBar path={path} keep={keep} selects={[{ name: "project", label: "Project", value: project.id, options: workspace.projects.map((p) => ({ value: p.id, label: p.name })) }]}>
            <TimeRangePicker path={path} keep={{ project: project.id, environment, release }} range={parsed.ok ? parsed.range : null} now={now} />
          </FilterBar>
        ) : null}
        {!parsed.ok ? (
          <Card className="p-4"><p role="alert" className="text-sm">{parsed.message}</p></Card>
        ) : !report || report.pages.length === 0 ? (
          <Card>
            <EmptyState title="No web vitals in this time range">
              <p>Browser SDKs with tracing send them with page loads (web-vital spans or transaction measurements).</p>
            </EmptyState>
          </Card>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="vital-totals">
              {WEB_VITAL_ORDER.map((vital) => {
                const total = report.overall[vital];
                return (
                  <Card key={vital} className="px-3 py-2">
                    <dt className="text-xs font-semibold text-muted">{LABELS[vital]}</dt>
                    <dd className="mt-1 text-xs text-muted" data-testid={`vital-bands-${vital}`}>
                      {total ? (
                        <span className="flex h-2 overflow-hidden rounded" title={`good ${total.good}, needs improvement ${total.needsImprovement}, poor ${total.poor}`}>
                          <span className="bg-emerald-500" style={{ width: `${(total.good / total.count) * 100}%` }} />
                          <span className="bg-amber-500" style={{ width: `${(total.needsImprovement / total.count) * 100}%` }} />
                          <span className="bg-red-500" style={{ width: `${(total.poor / total.count) * 100}%` }} />
                        </span>
                      ) : (
                        "no samples"
                      )}
                    </dd>
                  </Card>
                );
              })}
            </dl>
            <Card className="p-4">
              <h2 className="mb-2 text-sm font-semibold">p75 over time <span className="font-normal text-subtle">· ms (CLS × 1000)</span></h2>
              <Chart
                x={report.trend.x}
                series={WEB_VITAL_ORDER.map((vital) => ({
                  label: LABELS[vital], color: COLORS[vital],
                  values: report.trend.p75[vital].map((value) => (value === null ? 0 : vital === "cls" ? value * 1000 : value)),
                }))}
                title="p75 of each web vital over time"
              />
            </Card>
            <Card className="overflow-x-auto">
              <table className="w-full min-w-[48rem] text-sm" data-testid="vitals-table">
                <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2">Page</th>
                    {WEB_VITAL_ORDER.map((vital) => (
                      <th key={vital} scope="col" className="px-3 py-2 text-right">{LABELS[vital]} p75</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {report.pages.map((page) => (
                    <tr key={page.page} className="border-b border-line last:border-b-0" data-testid="vital-page" data-page={page.page}>
                      <td className="max-w-[22rem] truncate px-3 py-2 font-medium" title={page.page}>{page.page}</td>
                      {WEB_VITAL_ORDER.map((vital) => {
                        const stats = page.vitals[vital];
                        return (
                          <td key={vital} className="px-3 py-2 text-right">
                            {stats ? (
                              <span
                                className={`rounded px-1.5 py-0.5 text-xs font-medium tabular-nums ${RATING_STYLE[stats.rating]}`}
                                title={`${RATING_LABEL[stats.rating]} · ${stats.count} samples: ${stats.good} good, ${stats.needsImprovement} needs improvement, ${stats.poor} poor`}
                                data-testid={`vital-${vital}`}
                                data-value={stats.p75}
                                data-rating={stats.rating}
                              >
                                {formatVital(vital, stats.p75)}
                              </span>
                            ) : (
                              <span className="text-subtle">—</span>
                            )}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          </>
        )}
      </div>
    </AppShell>
  );
}
