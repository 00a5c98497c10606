import type { Metadata } from "next";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { formatCount } from "@/components/format";
import { performanceHref, transactionHref } from "@/components/performance/links";
import { Ms, PerformanceTabs, Rate } from "@/components/performance/perf-bits";
import { COLUMNS, DEFAULT_SORT, parseFilter, parseSort, sortedRows } from "@/components/performance/transaction-table";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState, inputClass, RelativeTime } from "@/components/ui";
import { Chart } from "@/components/ui/chart";
import { FilterBar, type FilterSelect } from "@/components/ui/filter-bar";
import { intervalFor, parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { getRuntime } from "@/src/runtime";
import { issueFacets } from "@/src/services/issues/list-issues";
import { transactionsReport } from "@/src/services/telemetry/performance";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Performance" };

const PAGE = 200;

/** A select of the filter bar from the values seen, keeping the selected one even when unseen. */
function facetSelect(name: string, label: string, values: string[], selected: string | undefined): FilterSelect {
  const all = [...new Set([...values, ...(selected ? [selected] : [])])].sort();
  return { name, label, value: selected ?? "", options: [{ value: "", label: `All ${label.toLowerCase()}s` }, ...all.map((value) => ({ value, label: value }))] };
}

/**
 * The transactions of the selected project (legacy transaction events and streamed segments alike):
 * counts, throughput, duration percentiles, failure rate and last seen, sortable and filterable by
 * any column, with throughput and p95 over the time range.
 */
export default async function PerformancePage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/performance`;
  const workspace = await requireWorkspace(org, hrefWith(path, search), search.project);
  const { organization, project } = workspace;
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : { statsPeriod: search.statsPeriod, start: search.start, end: search.end };
  const environment = search.environment || undefined;
  const release = search.release || undefined;
  const query = search.query?.trim().slice(0, 300) ?? "";
  const sort = parseSort(search.sort);
  const filter = parseFilter(query);
  const keep = { project: project?.id, environment, release, ...rangeParams };
  const problem = !parsed.ok ? parsed.message : !filter.ok ? filter.message : null;

  const facets = project ? await issueFacets(getRuntime().storage, project) : { releases: [], environments: [] };
  const interval = parsed.ok ? intervalFor(parsed.end - parsed.start) : 3_600_000;
  const report = project && parsed.ok
    ? await transactionsReport(getRuntime().storage, [project], { start: parsed.start, end: parsed.end, environment, release }, interval)
    : null;
  const rows = report && filter.ok ? sortedRows(report.rows.filter((row) => filter.conditions.every((keepRow) => keepRow(row))), sort) : [];
  const sortHref = (column: string) => {
    const next = sort.column === column ? `${sort.descending ? "" : "-"}${column}` : column === "name" || column === "op" ? column : `-${column}`;
    return hrefWith(path, { ...keep, query: query || undefined, sort: next === DEFAULT_SORT ? undefined : next });
  };

  return (
    <AppShell workspace={workspace} active="performance" projectHref={(p) => performanceHref(organization.slug, p.id)}>
      <div className="space-y-4">
        <div>
          <h1 className="text-xl font-semibold">Performance</h1>
          <p className="text-muted">
            {project ? <>Transactions of {project.name} — page loads, navigations, requests and tasks. Times are UTC.</> : "Create a project to see its transactions."}
          </p>
        </div>
        <PerformanceTabs base={path} active="transactions" keep={keep} />
        {report?.approximate ? (
          <p className="text-xs text-muted" data-testid="approximate-note">
            Percentiles over this range come from hourly sketches and are within 1 % of the exact values; counts and rates are exact.
          </p>
        ) : null}
        {project ? (
          <>
            <FilterBar
              path={path}
              keep={{ ...keep, query: query || undefined, sort: search.sort }}
              selects={[
                { name: "project", label: "Project", value: project.id, options: workspace.projects.map((p) => ({ value: p.id, label: p.name })) },
                facetSelect("environment", "Environment", facets.environments, environment),
                facetSelect("release", "Release", facets.releases, release),
              ]}
            >
              <TimeRangePicker path={path} keep={{ project: project.id, environment, release, query: query || undefined, sort: search.sort }} range={parsed.ok ? parsed.range : null} now={now} />
            </FilterBar>
            <form action={path} method="get" role="search" className="flex flex-wrap items-center gap-2">
              {Object.entries({ ...keep, sort: search.sort }).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
              <label htmlFor="transaction-query" className="sr-only">
                Filter transactions
              </label>
              <input
                id="transaction-query"
                name="query"
                defaultValue={query}
                placeholder="Filter: name text, op:pageload, p95:>500, failure_rate:>0.05, count:>=10"
                maxLength={300}
                className={`${inputClass} max-w-xl`}
              />
              <button type="submit" className={buttonClass.secondary}>
                Filter
              </button>
            </form>
          </>
        ) : null}
        {problem ? (
          <Card className="border-red-300 p-4 dark:border-red-500/40">
            <p role="alert" className="text-sm" data-testid="performance-problem">
              {problem}
            </p>
          </Card>
        ) : null}
        {report && project ? (
          <>
            <div className="grid gap-4 lg:grid-cols-2">
              <Card className="p-4">
                <h2 className="mb-2 text-sm font-semibold">Throughput <span className="font-normal text-subtle">· transactions per minute</span></h2>
                <Chart x={report.series.x} series={[{ label: "tpm", color: "#6366f1", values: report.series.throughput }]} title="Transactions per minute over time" />
              </Card>
              <Card className="p-4">
                <h2 className="mb-2 text-sm font-semibold">p95 duration <span className="font-normal text-subtle">· ms</span></h2>
                <Chart x={report.series.x} series={[{ label: "p95", color: "#d97706", values: report.series.p95.map((value) => value ?? 0) }]} title="p95 transaction duration over time" />
              </Card>
            </div>
            <Card className="overflow-x-auto">
              {rows.length === 0 ? (
                <EmptyState title={report.rows.length === 0 ? "No transactions in this time range" : "No transaction matches the filter"}>
                  <p>
                    {report.rows.length === 0
                      ? "Transactions come from SDK tracing: legacy transaction events and streamed segments (page loads, navigations, requests)."
                      : "Change the filter to see more."}
                  </p>
                </EmptyState>
              ) : (
                <table className="w-full min-w-[60rem] text-sm" data-testid="transactions-table">
                  <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                    <tr>
                      {COLUMNS.map((column) => (
                        <th
                          key={column.id}
                          scope="col"
                          className={`px-3 py-2 ${column.numeric && column.id !== "last_seen" ? "text-right" : ""}`}
                          aria-sort={sort.column === column.id ? (sort.descending ? "descending" : "ascending") : undefined}
                        >
                          <Link href={sortHref(column.id)} className="hover:text-fg" data-testid={`sort-${column.id}`}>
                            {column.label}
                            {sort.column === column.id ? (sort.descending ? " ↓" : " ↑") : ""}
                          </Link>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.slice(0, PAGE).map((row) => (
                      <tr key={`${row.projectId}:${row.name}`} className="border-b border-line last:border-b-0 hover:bg-surface-2" data-testid="transaction-row" data-name={row.name}>
                        <td className="max-w-[24rem] px-3 py-2">
                          <Link href={hrefWith(transactionHref(organization.slug, project.id, row.name), { ...rangeParams, environment, release })} className="block truncate font-medium text-accent hover:underline" title={row.name}>
                            {row.name}
                          </Link>
                        </td>
                        <td className="px-3 py-2 font-mono text-xs text-muted">{row.op}</td>
                        <td className="px-3 py-2 text-right tabular-nums" data-testid="cell-count" data-value={row.count}>{formatCount(row.count)}</td>
                        <td className="px-3 py-2 text-right tabular-nums" data-testid="cell-tpm" data-value={row.throughput}>{row.throughput.toFixed(row.throughput < 10 ? 2 : 0)}</td>
                        <td className="px-3 py-2 text-right"><Ms value={row.p50} testId="cell-p50" /></td>
                        <td className="px-3 py-2 text-right"><Ms value={row.p75} testId="cell-p75" /></td>
                        <td className="px-3 py-2 text-right"><Ms value={row.p95} testId="cell-p95" /></td>
                        <td className="px-3 py-2 text-right"><Ms value={row.p99} testId="cell-p99" /></td>
                        <td className="px-3 py-2 text-right"><Rate value={row.failureRate} testId="cell-failure-rate" /></td>
                        <td className="px-3 py-2 text-muted"><RelativeTime ms={row.lastSeen} now={now} /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Card>
            {rows.length > PAGE ? <p className="text-xs text-subtle">Showing {PAGE} of {rows.length} transactions: filter to narrow the list.</p> : null}
          </>
        ) : null}
      </div>
    </AppShell>
  );
}
