import type { Metadata } from "next";
import Link from "next/link";
import { orNotFound } from "@/components/app-error";
import { AppShell } from "@/components/app-shell";
import { CheckInStatusPill, CheckInStrip, formatRunDuration, MonitorHealthPill } from "@/components/crons/crons-bits";
import { requestNow } from "@/components/request-now";
import { ActionForm } from "@/components/action-form";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, EmptyState, KeyValueTable, RelativeTime } from "@/components/ui";
import { hasScope } from "@/src/services/accounts/access";
import { deleteMonitorAction, setMonitorStatusAction } from "../actions";
import { formatAbsolute } from "@/components/format";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { getMonitor, listMonitorCheckIns } from "@/src/services/monitors/monitors";
import { DEFAULT_CHECKIN_MARGIN, DEFAULT_MAX_RUNTIME, describeSchedule } from "@/src/services/monitors/schedule";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cron monitor" };

const TIMELINE = 100;

export default async function MonitorPage({ params }: { params: Promise<{ org: string; monitorSlug: string }> }) {
  const { org, monitorSlug } = await params;
  const slug = decodeURIComponent(monitorSlug);
  const workspace = await requireWorkspace(org, `/organizations/${org}/crons/${monitorSlug}`);
  const { organization, access } = workspace;
  const { storage } = getRuntime();
  const now = requestNow();
  const { monitor, project, checkIns } = await orNotFound(async () => ({
    ...(await getMonitor(storage, access, slug)),
    checkIns: (await listMonitorCheckIns(storage, access, slug, TIMELINE)).checkIns,
  }));
  const { config } = monitor;
  return (
    <AppShell workspace={workspace} active="crons" projectHref={(p) => `/organizations/${organization.slug}/crons?project=${p.id}`}>
      <div className="space-y-4">
        <div>
          <p className="text-xs text-muted">
            <Link href={`/organizations/${organization.slug}/crons?project=${project.id}`} className="hover:underline">
              Crons
            </Link>{" "}
            / {project.slug}
          </p>
          <h1 className="flex items-center gap-3 text-xl font-semibold" data-testid="monitor-name">
            {monitor.name} <MonitorHealthPill monitor={monitor} />
          </h1>
          <p className="font-mono text-xs text-subtle">{monitor.slug}</p>
          {hasScope(access, "project:write") ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <ActionForm action={setMonitorStatusAction.bind(null, organization.slug, monitor.slug, monitor.status === "active" ? "disabled" : "active")} testId="monitor-status-form">
                <SubmitButton className={buttonClass.secondary}>{monitor.status === "active" ? "Disable monitor" : "Enable monitor"}</SubmitButton>
              </ActionForm>
              <ActionForm action={deleteMonitorAction.bind(null, organization.slug, monitor.slug)} testId="monitor-delete-form">
                <SubmitButton className={buttonClass.secondary}>Delete monitor</SubmitButton>
              </ActionForm>
            </div>
          ) : null}
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          <Card className="p-4">
            <KeyValueTable
              compact
              rows={[
                ["Schedule", <span key="s" className="font-mono" data-testid="monitor-schedule">{describeSchedule(config.schedule)}</span>],
                ["Timezone", config.timezone ?? "UTC"],
                ["Check-in margin", `${config.checkinMargin ?? DEFAULT_CHECKIN_MARGIN} min`],
                ["Max runtime", `${config.maxRuntime ?? DEFAULT_MAX_RUNTIME} min`],
                ["Failures before an issue", String(config.failureIssueThreshold ?? 1)],
                ["Oks before recovery", String(config.recoveryThreshold ?? 1)],
              ]}
            />
          </Card>
          <Card className="p-4">
            <KeyValueTable
              compact
              rows={[
                ["Status", monitor.status],
                ["Last check-in", monitor.lastCheckIn !== null ? <RelativeTime key="l" ms={monitor.lastCheckIn} now={now} /> : "—"],
                ["Next expected", monitor.nextCheckIn !== null ? <span key="n" title={formatAbsolute(monitor.nextCheckIn)}>{formatAbsolute(monitor.nextCheckIn)}</span> : "after the first check-in"],
                [
                  "Issue",
                  monitor.incidentIssueId ? (
                    <Link key="i" href={`/organizations/${organization.slug}/issues/${monitor.incidentIssueId}`} className="text-accent hover:underline" data-testid="monitor-issue">
                      {monitor.health === "failing" ? "Open failure issue" : "Last failure issue"}
                    </Link>
                  ) : (
                    "none"
                  ),
                ],
              ]}
            />
          </Card>
        </div>
        <Card className="p-4">
          <h2 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">Timeline</h2>
          {checkIns.length === 0 ? <p className="text-sm text-muted">No check-ins yet.</p> : <CheckInStrip checkIns={checkIns} />}
        </Card>
        <Card className="overflow-x-auto">
          {checkIns.length === 0 ? (
            <EmptyState title="No check-ins yet" />
          ) : (
            <table className="w-full min-w-[40rem] text-sm" data-testid="check-ins-table">
              <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2">Status</th>
                  <th scope="col" className="px-4 py-2">Started</th>
                  <th scope="col" className="px-4 py-2">Duration</th>
                  <th scope="col" className="px-4 py-2">Expected at</th>
                  <th scope="col" className="px-4 py-2">Environment</th>
                </tr>
              </thead>
              <tbody>
                {checkIns.map((checkIn) => (
                  <tr key={checkIn.id} className="border-b border-line last:border-b-0" data-testid="check-in-row">
                    <td className="px-4 py-2">
                      <CheckInStatusPill status={checkIn.status} />
                    </td>
                    <td className="px-4 py-2 text-muted">
                      <RelativeTime ms={checkIn.dateAdded} now={now} />
                    </td>
                    <td className="px-4 py-2 tabular-nums" data-testid="check-in-duration">
                      {formatRunDuration(checkIn.duration)}
                    </td>
                    <td className="px-4 py-2 text-muted">{checkIn.expectedTime !== null ? formatAbsolute(checkIn.expectedTime) : "—"}</td>
                    <td className="px-4 py-2 text-muted">{checkIn.environment ?? "—"}</td>
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
