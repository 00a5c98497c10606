import type { Metadata } from "next";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { LiveTail } from "@/components/logs/live-tail";
import { LogTable } from "@/components/logs/log-table";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState } from "@/components/ui";
import { FilterBar, projectSelect } from "@/components/ui/filter-bar";
import { parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { AppError } from "@/src/errors";
import { LOG_LEVELS, type LogLevel, type Page, type StoredLog } from "@/src/model";
import { getRuntime } from "@/src/runtime";
import { listLogs, parseLogSearch } from "@/src/services/telemetry/list-logs";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Logs" };

const PAGE_SIZE = 100;

/**
 * The log explorer: the lines SDKs sent (`Sentry.logger.*`), newest first, in the URL's time range,
 * filtered by project, level and a search (`key:value` attribute filters, `trace:<id>`, free text).
 * `live=1` refreshes the page every few seconds (the live tail); `cursor` pages to older lines.
 */
export default async function LogsPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/logs`;
  const projectRef = search.project || undefined;
  const workspace = await requireWorkspace(org, hrefWith(path, search), projectRef);
  const { organization } = workspace;
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : { statsPeriod: search.statsPeriod, start: search.start, end: search.end };
  const selected = projectRef ? workspace.project : null;
  const projects = selected ? [selected] : workspace.projects;
  const level = (LOG_LEVELS as readonly string[]).includes(search.level ?? "") ? (search.level as LogLevel) : undefined;
  const live = search.live === "1" && !search.cursor && parsed.ok && parsed.range.kind === "period";

  let page: Page<StoredLog> | null = null;
  let problem = parsed.ok ? null : parsed.message;
  if (parsed.ok) {
    try {
      const query = parseLogSearch(search.query ?? "");
      if (level) query.levels = [...(query.levels ?? []), level];
      page = await listLogs(getRuntime().storage, projects, {
        ...query, start: parsed.start, end: live || parsed.range.kind === "period" ? undefined : parsed.end, limit: PAGE_SIZE,
        ...(search.cursor ? { cursor: search.cursor } : {}),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problem = error.message;
    }
  }
  const keep = { project: selected?.id, level, query: search.query || undefined, ...rangeParams };

  return (
    <AppShell workspace={workspace} active="logs" projectHref={(p) => hrefWith(path, { ...keep, project: p.id })}>
      <LiveTail on={live} />
      <div className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="text-xl font-semibold">Logs</h1>
            <p className="text-muted">
              Log lines of {selected ? selected.name : `all projects of ${organization.name}`}, newest first. Search with words, <code>key:value</code> for
              attributes, <code>severity:error</code> or <code>trace:&lt;id&gt;</code>. Times are UTC.
            </p>
          </div>
          <Link
            href={hrefWith(path, { ...keep, live: live ? undefined : "1" })}
            className={live ? buttonClass.primary : buttonClass.secondary}
            aria-pressed={live}
            data-testid="live-tail"
          >
            {live ? "Live: on" : "Live tail"}
          </Link>
        </div>
        <FilterBar
          path={path}
          keep={{ ...keep, live: live ? "1" : undefined }}
          selects={[
            projectSelect(workspace.projects, selected?.id),
            { name: "level", label: "Level", value: level ?? "", options: [{ value: "", label: "All levels" }, ...LOG_LEVELS.map((value) => ({ value, label: value }))] },
          ]}
          search={{ name: "query", label: "Search", value: search.query ?? "", placeholder: "payment failed user.id:42" }}
        >
          <TimeRangePicker path={path} keep={{ project: keep.project, level: keep.level, query: keep.query }} range={parsed.ok ? parsed.range : null} now={now} />
        </FilterBar>
        {problem ? (
          <Card className="border-red-300 p-4 dark:border-red-500/40">
            <p role="alert" className="text-sm" data-testid="logs-problem">
              {problem}
            </p>
          </Card>
        ) : projects.length === 0 ? (
          <Card>
            <EmptyState title="This organization has no projects yet" />
          </Card>
        ) : page ? (
          <Card className="overflow-hidden">
            <LogTable logs={page.items} projects={workspace.projects} organizationSlug={organization.slug} />
            {page.nextCursor ? (
              <div className="border-t border-line px-4 py-2 text-right">
                <Link href={hrefWith(path, { ...keep, cursor: page.nextCursor })} className="text-sm text-accent hover:underline" data-testid="older-logs">
                  Older lines →
                </Link>
              </div>
            ) : null}
          </Card>
        ) : null}
      </div>
    </AppShell>
  );
}
