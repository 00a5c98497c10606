/** Release health figures as the releases list, the release page and the dashboard show them (issue 37). */

/** A percentage with at most two decimals (99.5%, 66.67%); "—" when there is nothing to rate. */
export function formatRate(value: number | null): string {
  return value === null ? "—" : `${Math.round(value * 100) / 100}%`;
}

/** Seconds as "850 ms", "12.3 s" or "4.2 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 120) return `${Math.round(seconds * 10) / 10} s`;
  return `${Math.round(seconds / 6) / 10} min`;
}

/** Crash-free rate coloured by how healthy it is (green from 99.5%, amber from 95%). */
export function CrashFree({ value, testId }: { value: number | null; testId?: string }) {
  const tone = value === null ? "text-subtle" : value >= 99.5 ? "text-green-700 dark:text-green-400" : value >= 95 ? "text-amber-700 dark:text-amber-400" : "text-red-700 dark:text-red-400";
  return (
    <span className={`tabular-nums ${tone}`} data-testid={testId} data-value={value ?? undefined}>
      {formatRate(value)}
    </span>
  );
}

/** A bar of the share of sessions (and, written beside it, users) that ran the release. */
export function AdoptionBar({ sessions, users }: { sessions: number | null; users: number | null }) {
  const width = Math.max(0, Math.min(100, sessions ?? 0));
  return (
    <div className="flex items-center gap-2" data-testid="release-adoption" data-sessions={sessions ?? undefined} data-users={users ?? undefined}>
      <div className="h-2 w-20 overflow-hidden rounded-full bg-surface-2" role="img" aria-label={`Adoption: ${formatRate(sessions)} of sessions`}>
        <div className="h-full rounded-full bg-accent" style={{ width: `${width}%` }} />
      </div>
      <span className="text-xs text-muted tabular-nums" title="Share of sessions · share of users">
        {formatRate(sessions)}
        {users !== null ? ` · ${formatRate(users)} users` : ""}
      </span>
    </div>
  );
}
