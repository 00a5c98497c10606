import type { Metadata } from "next";
import Link from "next/link";
import { AppShell, statsHref } from "@/components/app-shell";
import { formatCount } from "@/components/format";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState } from "@/components/ui";
import { Chart, type ChartSeries } from "@/components/ui/chart";
import { FilterBar, projectSelect } from "@/components/ui/filter-bar";
import { intervalFor, parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { getRuntime } from "@/src/runtime";
import { AppError } from "@/src/errors";
import { getOutcomeReport, OUTCOME_KINDS, statsCategory, type OutcomeReport } from "@/src/services/telemetry/outcome-stats";
import { alignedWindow } from "@/src/services/telemetry/stats-window";
import { requireWorkspace } from "@/app/_lib/session";
import { OUTCOME_COLORS, OUTCOME_LABELS, STATS_CATEGORIES } from "./outcome-labels";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Stats" };

const DEFAULT_CATEGORY = "error";

/**
 * What ingest did with the items the SDKs sent, per data category: accepted, filtered, rate limited,
 * invalid, discarded by the client — totals, a chart over time and the reasons of everything dropped.
 * For the whole organisation or one project (`?project=<id>`), in the URL's time range.
 */
export default async function StatsPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/stats`;
  const projectRef = search.project || undefined;
  const workspace = await requireWorkspace(org, hrefWith(path, search), projectRef);
  const { organization } = workspace;
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : { statsPeriod: search.statsPeriod, start: search.start, end: search.end };
  // `default` and `security` are counted as `error`, as in Sentry's stats.
  const category = statsCategory(search.category || DEFAULT_CATEGORY);
  const categoryProblem = /^[a-z_]{1,64}$/.test(category) ? null : `Invalid category "${category.slice(0, 40)}": expected a data category such as error or transaction.`;
  const selected = projectRef ? workspace.project : null;
  const projects = selected ? [selected] : workspace.projects;

  let report: OutcomeReport | null = null;
  let problem = parsed.ok ? categoryProblem : parsed.message;
  if (parsed.ok && !problem && projects.length > 0) {
    try {
      const window = alignedWindow(parsed.start, parsed.end, intervalFor(parsed.end - parsed.start), now);
      report = await getOutcomeReport(getRuntime().storage, projects, window, category);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problem = error.message;
    }
  }
  const categories = [...new Set([...STATS_CATEGORIES, ...(report?.categories ?? []), category])].sort();
  const keep = { project: selected?.id, category: category === DEFAULT_CATEGORY ? undefined : category, ...rangeParams };

  return (
    <AppShell workspace={workspace} active="stats" projectHref={(p) => statsHref(organization.slug, { ...keep, project: p.id })}>
      <div className="space-y-4">
        <div>
          <h1 className="text-xl font-semibold">Stats</h1>
          <p className="text-muted">
            What happened to the items SDKs sent to {selected ? selected.name : `all projects of ${organization.name}`}: accepted, or dropped and why. Times are UTC.
          </p>
        </div>
        <FilterBar
          path={path}
          keep={keep}
          selects={[
            projectSelect(workspace.projects, selected?.id),
            { name: "category", label: "Category", value: category, options: categories.map((value) => ({ value, label: value })) },
          ]}
        >
          <TimeRangePicker path={path} keep={{ project: keep.project, category: keep.category }} range={parsed.ok ? parsed.range : null} now={now} />
        </FilterBar>
        {problem ? (
          <Card className="border-red-300 p-4 dark:border-red-500/40">
            <p role="alert" className="text-sm" data-testid="stats-problem">
              {problem}
            </p>
            <Link href={statsHref(organization.slug, { project: keep.project })} className="mt-2 inline-block text-sm text-accent hover:underline">
              Show the last 24 hours
            </Link>
          </Card>
        ) : report ? (
          <StatsReport report={report} category={category} />
        ) : (
          <Card>
            <EmptyState title="This organization has no projects yet">
              <p>Stats count what SDKs send to projects: create one first.</p>
            </EmptyState>
          </Card>
        )}
      </div>
    </AppShell>
  );
}

function StatsReport({ report, category }: { report: OutcomeReport; category: string }) {
  // Periscope's own outcome (item types not stored yet) only when there is some.
  const kinds = OUTCOME_KINDS.filter((kind) => kind !== "unsupported" || report.totals.unsupported > 0);
  const series: ChartSeries[] = kinds.map((kind) => ({ label: OUTCOME_LABELS[kind], color: OUTCOME_COLORS[kind], values: report.series[kind] }));
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label={`Totals of ${category}`}>
        {kinds.map((kind) => (
          <Card key={kind} className="flex flex-col-reverse px-3 py-2">
            <dt className="flex items-center gap-1.5 text-xs text-muted">
              <span aria-hidden className="inline-block h-2 w-2 rounded-sm" style={{ background: OUTCOME_COLORS[kind] }} />
              {OUTCOME_LABELS[kind]}
            </dt>
            <dd className="text-xl font-semibold tabular-nums" data-testid={`total-${kind}`} title={String(report.totals[kind])}>
              {formatCount(report.totals[kind])}
            </dd>
          </Card>
        ))}
      </dl>
      <Card className="p-4">
        <h2 className="mb-2 text-sm font-semibold">
          {category} over time <span className="font-normal text-subtle">· per {report.window.interval >= 86_400_000 ? "day" : `${report.window.interval / 3_600_000}h`}</span>
        </h2>
        <Chart x={report.intervals} series={series} title={`Outcomes of ${category} over time`} stacked />
      </Card>
      <Card className="overflow-x-auto">
        <h2 className="border-b border-line px-4 py-2.5 text-sm font-semibold">
          Dropped items by reason <span className="font-normal text-subtle">· every category</span>
        </h2>
        {report.dropped.length === 0 ? (
          <EmptyState title="Nothing was dropped in this range" />
        ) : (
          <table className="w-full min-w-[36rem] text-sm" data-testid="reasons-table">
            <thead className="bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-2">Outcome</th>
                <th scope="col" className="px-4 py-2">Reason</th>
                <th scope="col" className="px-4 py-2">Category</th>
                <th scope="col" className="px-4 py-2 text-right">Quantity</th>
              </tr>
            </thead>
            <tbody>
              {report.dropped.map((row) => (
                <tr key={`${row.outcome}:${row.reason}:${row.category}`} className="border-t border-line" data-testid="reason-row">
                  <td className="px-4 py-2">{OUTCOME_LABELS[row.outcome]}</td>
                  <td className="px-4 py-2 font-mono text-xs">{row.reason ?? <span className="font-sans text-subtle">none given</span>}</td>
                  <td className="px-4 py-2">{row.category}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{row.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
