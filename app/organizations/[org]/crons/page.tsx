import type { Metadata } from "next";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { MonitorHealthPill } from "@/components/crons/crons-bits";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { ActionForm } from "@/components/action-form";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, EmptyState, inputClass, RelativeTime } from "@/components/ui";
import { hasScope } from "@/src/services/accounts/access";
import { createMonitorAction } from "./actions";
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
        {project && hasScope(access, "project:write") ? (
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">New monitor</h2>
            <ActionForm action={createMonitorAction.bind(null, organization.slug, project.id)} className="grid gap-3 sm:grid-cols-2" testId="new-monitor">
              <label className="text-sm">
                Name
                <input name="name" required maxLength={128} className={inputClass} />
              </label>
              <label className="text-sm">
                Slug (from the name when empty)
                <input name="slug" maxLength={50} className={inputClass} />
              </label>
              <label className="text-sm">
                Schedule type
                <select name="scheduleType" className={inputClass} defaultValue="crontab">
                  <option value="crontab">Crontab</option>
                  <option value="interval">Interval</option>
                </select>
              </label>
              <label className="text-sm">
                Crontab
                <input name="schedule" placeholder="0 * * * *" className={`${inputClass} font-mono`} />
              </label>
              <label className="text-sm">
                Interval (every N)
                <input name="intervalValue" type="number" min={1} className={inputClass} />
              </label>
              <label className="text-sm">
                Interval unit
                <select name="intervalUnit" className={inputClass} defaultValue="hour">
                  {["minute", "hour", "day", "week", "month", "year"].map((unit) => (
                    <option key={unit} value={unit}>
                      {unit}
                    </option>
                  ))}
                </select>
              </label>
              <label className="text-sm">
                Timezone
                <input name="timezone" placeholder="UTC" className={inputClass} />
              </label>
              <label className="text-sm">
                Check-in margin (minutes)
                <input name="checkinMargin" type="number" min={1} placeholder="1" className={inputClass} />
              </label>
              <label className="text-sm">
                Max runtime (minutes)
                <input name="maxRuntime" type="number" min={1} placeholder="30" className={inputClass} />
              </label>
              <div className="flex items-end">
                <SubmitButton className={buttonClass.primary}>Create monitor</SubmitButton>
              </div>
            </ActionForm>
          </Card>
        ) : null}
      </div>
    </AppShell>
  );
}
