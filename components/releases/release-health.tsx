import Link from "next/link";
import type { ReactNode } from "react";
import { Card, EmptyState } from "../ui";
import { Chart, type ChartSeries } from "../ui/chart";
import { AdoptionBar, CrashFree, formatDuration, formatRate } from "./health-bits";
import type { ReleaseHealthView } from "@/src/services/releases/release-health-page";

const HEALTH_SERIES = [
  { key: "healthy", label: "Healthy", color: "#2f9e44" },
  { key: "errored", label: "Errored", color: "#e8a317" },
  { key: "unhandled", label: "Unhandled", color: "#e8590c" },
  { key: "abnormal", label: "Abnormal", color: "#9c36b5" },
  { key: "crashed", label: "Crashed", color: "#e03131" },
] as const;

/** A signed difference in percentage points, "+0.5 pp"; "—" when either side has no figure. */
function delta(now: number | null, before: number | null): string {
  if (now === null || before === null) return "—";
  const points = Math.round((now - before) * 100) / 100;
  return `${points > 0 ? "+" : ""}${points} pp`;
}

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Card className="px-4 py-3">
      <p className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</p>
      <div className="mt-1 text-lg font-semibold tabular-nums" data-testid={testId}>
        {children}
      </div>
    </Card>
  );
}

/** Release health on the release page: figures, sessions by health over time, the previous release beside it. */
export function ReleaseHealth({ view, newIssues, previousHref }: { view: ReleaseHealthView; newIssues: number; previousHref: string | null }) {
  const { figures, previous } = view;
  if (!figures) {
    return (
      <Card>
        <EmptyState title="No sessions in this range">
          <p>Enable session tracking in the SDK (on by default in @sentry/browser and @sentry/node) to see crash-free rates and adoption.</p>
        </EmptyState>
      </Card>
    );
  }
  const series: ChartSeries[] = HEALTH_SERIES.filter(({ key }) => key === "healthy" || view.series.sessions.some((slot) => slot[key] > 0)).map(({ key, label, color }) => ({
    label,
    color,
    values: view.series.sessions.map((slot) => slot[key]),
  }));
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="release-health">
        <Figure label="Crash-free sessions" testId="health-crash-free-sessions">
          <CrashFree value={figures.crashFreeSessions} />
        </Figure>
        <Figure label="Crash-free users" testId="health-crash-free-users">
          <CrashFree value={figures.crashFreeUsers} />
        </Figure>
        <Figure label="Adoption" testId="health-adoption">
          <AdoptionBar sessions={figures.sessionsAdoption} users={figures.adoption} />
        </Figure>
        <Figure label="Sessions · users" testId="health-totals">
          <span data-sessions={figures.sessions} data-users={figures.users}>
            {figures.sessions} · {figures.users}
          </span>
        </Figure>
        <Figure label="Crashed sessions" testId="health-crashed">
          <span title="Crashed, abnormal or unhandled">{figures.sessionsCrashed}</span>
        </Figure>
        <Figure label="Errored sessions" testId="health-errored">
          <span title="Handled errors: still crash-free">{figures.sessionsErrored}</span>
        </Figure>
        <Figure label="Duration p50 · p90" testId="health-duration">
          {formatDuration(figures.durationP50)} · {formatDuration(figures.durationP90)}
        </Figure>
        <Figure label="Vs. previous release" testId="health-comparison">
          {previous ? (
            <span className="text-sm font-normal">
              {previousHref ? (
                <Link href={previousHref} className="font-mono text-accent hover:underline" data-testid="previous-release">
                  {previous.summary.version}
                </Link>
              ) : null}
              <span className="block" data-testid="crash-free-delta">
                crash-free {delta(figures.crashFreeSessions, previous.figures?.crashFreeSessions ?? null)} (was {formatRate(previous.figures?.crashFreeSessions ?? null)})
              </span>
              <span className="block" data-testid="new-issues-delta">
                new issues {newIssues} (was {previous.summary.newIssues})
              </span>
            </span>
          ) : (
            <span className="text-sm font-normal text-subtle">first release</span>
          )}
        </Figure>
      </div>
      <Card className="p-4">
        <Chart x={view.series.x} series={series} title="Sessions of this release by health" stacked />
      </Card>
    </div>
  );
}
