import type { Metadata } from "next";
import Link from "next/link";
import { AppShell, releaseHref } from "@/components/app-shell";
import { formatCount } from "@/components/format";
import { IssueRow } from "@/components/issues/issue-row";
import { AdoptionBar, CrashFree } from "@/components/releases/health-bits";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState, Section } from "@/components/ui";
import { Chart, type ChartSeries } from "@/components/ui/chart";
import { intervalFor, parseTimeRange } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { dashboard } from "@/src/services/dashboard/dashboard";
import { hourWindow } from "@/src/services/releases/health";
import type { IssueWithStats } from "@/src/model";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dashboard" };

const PALETTE = ["#1c7ed6", "#e8590c", "#2f9e44", "#9c36b5", "#f08c00", "#0c8599", "#e03131", "#5c940d"];
const HEALTH_COLORS = { healthy: "#2f9e44", errored: "#e8a317", unhandled: "#e8590c", abnormal: "#9c36b5", crashed: "#e03131" } as const;

/** The organisation's landing page (issue 37): errors and crash-free rate per project, new and regressed issues, releases in progress. */
export default async function OrganizationHome({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}`;
  const workspace = await requireWorkspace(org, hrefWith(path, search));
  const { organization } = workspace;
  const now = requestNow();
  const parsed = parseTimeRange(search, now);
  const span = hourWindow(parsed.ok ? parsed.start : now - 86_400_000, parsed.ok ? parsed.end : now);
  const interval = intervalFor(span.end - span.start);
  const window = { start: Math.floor(span.start / interval) * interval, end: span.end, interval, now };
  const view = await dashboard(getRuntime().storage, workspace.projects, window);
  const issueHref = (issue: IssueWithStats) => `/organizations/${organization.slug}/issues/${issue.id}`;
  const errorSeries: ChartSeries[] = view.projects
    .filter((entry) => entry.errors > 0)
    .slice(0, PALETTE.length)
    .map((entry, index) => ({ label: entry.project.slug, color: PALETTE[index]!, values: entry.errorSeries }));
  const sessionSeries: ChartSeries[] = (Object.keys(HEALTH_COLORS) as (keyof typeof HEALTH_COLORS)[])
    .filter((health) => health === "healthy" || view.sessionSeries.some((slot) => slot[health] > 0))
    .map((health) => ({ label: health, color: HEALTH_COLORS[health], values: view.sessionSeries.map((slot) => slot[health]) }));

  return (
    <AppShell workspace={workspace} active="dashboard" projectHref={(p) => `/organizations/${organization.slug}/issues?project=${p.id}`}>
      <div className="space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="text-xl font-semibold">Dashboard</h1>
            <p className="text-muted">{organization.name} at a glance. Times are UTC.</p>
          </div>
          <TimeRangePicker path={path} keep={{}} range={parsed.ok ? parsed.range : null} now={now} />
        </div>
        {!parsed.ok ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{parsed.message} Showing the last 24 hours.</p> : null}
        {workspace.projects.length === 0 ? (
          <Card>
            <EmptyState title="No projects yet">
              <p>
                <Link href={`/organizations/${organization.slug}/projects#create`} className="text-accent hover:underline">
                  Create a project
                </Link>{" "}
                and point an SDK at it.
              </p>
            </EmptyState>
          </Card>
        ) : (
          <>
            <Card className="overflow-x-auto">
              <table className="w-full min-w-[36rem] text-sm" data-testid="dashboard-projects">
                <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-2">Project</th>
                    <th scope="col" className="px-4 py-2 text-right">Errors</th>
                    <th scope="col" className="px-4 py-2 text-right">Sessions</th>
                    <th scope="col" className="px-4 py-2 text-right">Crash-free sessions</th>
                  </tr>
                </thead>
                <tbody>
                  {view.projects.map((entry) => (
                    <tr key={entry.project.id} className="border-b border-line last:border-b-0" data-testid="dashboard-project" data-project={entry.project.slug}>
                      <td className="px-4 py-2.5">
                        <Link href={`/organizations/${organization.slug}/issues?project=${entry.project.id}`} className="font-medium text-accent hover:underline">
                          {entry.project.name}
                        </Link>
                      </td>
                      <td className="px-4 py-2.5 text-right tabular-nums" data-testid="dashboard-errors">{formatCount(entry.errors)}</td>
                      <td className="px-4 py-2.5 text-right tabular-nums">{formatCount(Object.values(entry.sessions).reduce((a, b) => a + b, 0))}</td>
                      <td className="px-4 py-2.5 text-right">
                        <CrashFree value={entry.crashFreeSessions} testId="dashboard-crash-free" />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
            <div className="grid gap-6 xl:grid-cols-2">
              <Section title="Errors per project" id="errors">
                <Card className="p-4">
                  <Chart x={view.x} series={errorSeries.length > 0 ? errorSeries : [{ label: "errors", color: PALETTE[0]!, values: view.x.map(() => 0) }]} title="Accepted errors per project" />
                </Card>
              </Section>
              <Section title="Sessions by health" id="sessions">
                <Card className="p-4">
                  <Chart x={view.x} series={sessionSeries} title="Sessions of all projects by health" stacked />
                </Card>
              </Section>
              <IssueList title="Newest issues" id="newest" issues={view.newest} href={issueHref} now={now} empty="No new issues in the open." />
              <IssueList title="Regressed issues" id="regressed" issues={view.regressed} href={issueHref} now={now} empty="Nothing resolved came back." />
            </div>
            <Section title="Releases in progress" id="releases">
              <Card className="overflow-x-auto">
                {view.releases.length === 0 ? (
                  <EmptyState title="No sessions in this range">
                    <p>Releases appear here once SDKs send sessions with a release.</p>
                  </EmptyState>
                ) : (
                  <table className="w-full min-w-[36rem] text-sm" data-testid="dashboard-releases">
                    <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                      <tr>
                        <th scope="col" className="px-4 py-2">Release</th>
                        <th scope="col" className="px-4 py-2">Project</th>
                        <th scope="col" className="px-4 py-2">Adoption</th>
                        <th scope="col" className="px-4 py-2 text-right">Crash-free sessions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {view.releases.map((entry) => (
                        <tr key={`${entry.project.id}:${entry.version}`} className="border-b border-line last:border-b-0" data-testid="dashboard-release">
                          <td className="px-4 py-2.5">
                            <Link href={releaseHref(organization.slug, entry.version, entry.project)} className="font-mono text-accent hover:underline">
                              {entry.version}
                            </Link>
                          </td>
                          <td className="px-4 py-2.5 text-muted">{entry.project.slug}</td>
                          <td className="px-4 py-2.5">
                            <AdoptionBar sessions={entry.figures.sessionsAdoption} users={entry.figures.adoption} />
                          </td>
                          <td className="px-4 py-2.5 text-right">
                            <CrashFree value={entry.figures.crashFreeSessions} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </Card>
            </Section>
          </>
        )}
      </div>
    </AppShell>
  );
}

function IssueList({ title, id, issues, href, now, empty }: { title: string; id: string; issues: IssueWithStats[]; href: (issue: IssueWithStats) => string; now: number; empty: string }) {
  return (
    <Section title={title} id={id}>
      <Card className="overflow-hidden">
        {issues.length > 0 ? (
          <ul aria-label={title} data-testid={`dashboard-${id}`}>
            {issues.map((issue) => (
              <IssueRow key={issue.id} issue={issue} now={now} href={href(issue)} />
            ))}
          </ul>
        ) : (
          <EmptyState title={empty} />
        )}
      </Card>
    </Section>
  );
}
