import type { CheckInStatus, Monitor } from "@/src/model";
import { Pill } from "@/components/ui";

const STATUS_TONES: Record<CheckInStatus, "green" | "red" | "amber" | "accent" | "neutral"> = {
  ok: "green",
  error: "red",
  missed: "amber",
  timeout: "red",
  in_progress: "accent",
};

const STATUS_LABELS: Record<CheckInStatus, string> = {
  ok: "OK",
  error: "Error",
  missed: "Missed",
  timeout: "Timed out",
  in_progress: "In progress",
};

export function CheckInStatusPill({ status }: { status: CheckInStatus }) {
  return (
    <Pill tone={STATUS_TONES[status]}>
      <span data-testid="check-in-status" data-status={status}>
        {STATUS_LABELS[status]}
      </span>
    </Pill>
  );
}

/** How a monitor is doing, as its list row and page say it. */
export function MonitorHealthPill({ monitor }: { monitor: Monitor }) {
  if (monitor.status === "disabled") return <Pill>Disabled</Pill>;
  if (monitor.health === "failing") return <Pill tone="red">Failing</Pill>;
  if (monitor.lastStatus === null) return <Pill>Waiting for first check-in</Pill>;
  return <CheckInStatusPill status={monitor.lastStatus} />;
}

/** A duration in ms as people read it: 850 ms, 12.4 s, 3 min 5 s. */
export function formatRunDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

const BAR_TONES: Record<CheckInStatus, string> = {
  ok: "bg-emerald-500",
  error: "bg-red-500",
  missed: "bg-amber-400",
  timeout: "bg-red-700",
  in_progress: "bg-sky-500",
};

/** The runs as a strip of coloured ticks, oldest on the left; each tick names its status and time. */
export function CheckInStrip({ checkIns }: { checkIns: { id: string; status: CheckInStatus; dateAdded: number }[] }) {
  return (
    <div className="flex h-6 items-stretch gap-0.5" role="img" aria-label={`Last ${checkIns.length} check-ins, oldest first`} data-testid="check-in-strip">
      {[...checkIns].reverse().map((checkIn) => (
        <span
          key={checkIn.id}
          title={`${STATUS_LABELS[checkIn.status]} · ${new Date(checkIn.dateAdded).toISOString()}`}
          className={`w-2 rounded-sm ${BAR_TONES[checkIn.status]}`}
        />
      ))}
    </div>
  );
}
