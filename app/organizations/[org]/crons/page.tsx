import type { Metadata } from "next";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { MonitorHealthPill } from "@/components/crons/crons-bits";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState, RelativeTime } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { listMonitors } from "@/src/services/monitors/monitors";
import { describeSchedule } from "@/src/services/monitors/schedule";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Crons" };

const cronsHref = (organizationSlug: string, projectId?: string) => `/organizations/${organizationSlug}/crons${projectId ? `?project=${projectId}` : ""}`;

export default async function CronsPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const workspace = await requireWorkspace(org, hrefWith(`/organizations/${org}/crons`, search), search.project);
  const { organization, project, access } = workspace;
  const { storage } = getRuntime();
  const now = requestNow();
  const monitors = project ? await listMonitors(storage, access, [project]) : [];
  return (
    <AppShell workspace={workspace} active="crons" projectHref={(p) => cronsHref(organization.slug, p.id)}>
      <div className="space-y-4">
        <div>
          <h1 className="text-xl font-semibold">Crons</h1>
          <p className="text-muted">Scheduled jobs that check in: each run, and the runs that never came.</p>
        </div>
        <Card className="overflow-x-auto">
          {monitors.length === 0 ? (
            <EmptyState title="No cron monitors yet">
              <p>
                Wrap a job in <code className="font-mono">Sentry.withMonitor(&quot;slug&quot;, job, {"{ schedule: { type: \"crontab\", value: \"0 * * * *\" } }"})</code>: its first check-in creates the monitor.
              </p>
            </EmptyState>
          ) : (
            <table className="w-full min-w-[44rem] text-sm" data-testid="monitors-table">
              <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2">Monitor</th>
                  <th scope="col" className="px-4 py-2">Status</th>
                  <th scope="col" className="px-4 py-2">Schedule</th>
                  <th scope="col" className="px-4 py-2">Last check-in</th>
                  <th scope="col" className="px-4 py-2">Next expected</th>
                </tr>
              </thead>
              <tbody>
                {monitors.map(({ monitor }) => (
                  <tr key={monitor.id} className="border-b border-line last:border-b-0 hover:bg-surface-2" data-testid="monitor-row">
                    <td className="px-4 py-2.5">
                      <Link href={`/organizations/${organization.slug}/crons/${encodeURIComponent(monitor.slug)}`} className="font-medium text-accent hover:underline">
                        {monitor.name}
                      </Link>
                      <span className="ml-2 font-mono text-xs text-subtle">{monitor.slug}</span>
                    </td>
                    <td className="px-4 py-2.5" data-testid="monitor-health">
                      <MonitorHealthPill monitor={monitor} />
                    </td>
                    <td className="px-4 py-2.5 font-mono text-xs">
                      {describeSchedule(monitor.config.schedule)}
                      {monitor.config.timezone ? <span className="text-subtle"> ({monitor.config.timezone})</span> : null}
                    </td>
                    <td className="px-4 py-2.5 text-muted">{monitor.lastCheckIn !== null ? <RelativeTime ms={monitor.lastCheckIn} now={now} /> : "—"}</td>
                    <td className="px-4 py-2.5 text-muted">{monitor.nextCheckIn !== null ? <RelativeTime ms={monitor.nextCheckIn} now={now} /> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      </div>
    </AppShell>
  );
}
