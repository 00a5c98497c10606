import type { Deploy } from "@/src/model";
import type { ReleaseSummary } from "@/src/services/releases/releases";
import { Pill, RelativeTime } from "../ui";

/** "Unreleased" for a release sentry-cli made but did not finalize; "Implicit" for one only telemetry named. */
export function ReleaseStatusPill({ summary }: { summary: Pick<ReleaseSummary, "release" | "dateReleased"> }) {
  if (summary.release === null) return <Pill title="Known only from the release of events, sessions or transactions">Implicit</Pill>;
  if (summary.dateReleased === null) return <Pill tone="amber" title="Not finalized yet (sentry-cli releases finalize)">Unreleased</Pill>;
  return <Pill tone="green">Finalized</Pill>;
}

export function LastDeploy({ deploy, now }: { deploy: Deploy | null; now: number }) {
  if (!deploy) return <span className="text-subtle">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Pill tone="accent">{deploy.environment}</Pill>
      <RelativeTime ms={deploy.dateFinished} now={now} />
    </span>
  );
}
