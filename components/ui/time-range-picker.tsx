import Link from "next/link";
import { hrefWith } from "../search-params";
import { buttonClass, inputClass } from "../ui";
import { isoDay, TIME_RANGE_PRESETS, timeRangeParams, type TimeRange } from "./time-range";

/**
 * The one time-range picker of the UI: the preset periods as links and a custom start/end form,
 * both plain URLs (`statsPeriod`, or `start` + `end`), so it works without JavaScript and every
 * range can be bookmarked. `keep` holds the page's other search parameters, carried over.
 * `range` is null when the URL's range could not be read (no preset is marked then).
 */
export function TimeRangePicker({
  path,
  keep,
  range,
  now,
}: {
  path: string;
  keep: Record<string, string | undefined>;
  range: TimeRange | null;
  now: number;
}) {
  const custom = range?.kind === "absolute" ? range : null;
  const customStart = custom ? isoDay(custom.start) : isoDay(now - 7 * 86_400_000);
  const customEnd = custom ? isoDay(custom.end - 1) : isoDay(now);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="time-range-picker">
      <div role="group" aria-label="Time range" className="inline-flex overflow-hidden rounded-md border border-line bg-surface shadow-sm">
        {TIME_RANGE_PRESETS.map(({ period, label, title }) => {
          const current = range?.kind === "period" && range.period === period;
          return (
            <Link
              key={period}
              href={hrefWith(path, { ...keep, ...timeRangeParams({ kind: "period", period }) })}
              title={title}
              aria-current={current ? "true" : undefined}
              className="border-l border-line px-2.5 py-1.5 text-sm font-medium text-muted first:border-l-0 hover:bg-surface-2 hover:text-fg aria-[current=true]:bg-accent aria-[current=true]:text-accent-fg"
            >
              {label}
            </Link>
          );
        })}
      </div>
      <details className="group relative">
        <summary
          className={`${buttonClass.secondary} cursor-pointer list-none ${custom ? "border-accent text-accent" : ""}`}
          aria-label="Custom time range"
        >
          {custom ? `${customStart} → ${customEnd}` : "Custom"}
        </summary>
        <form action={path} method="get" className="absolute right-0 z-10 mt-1 flex w-64 flex-col gap-2 rounded-lg border border-line bg-surface p-3 shadow-lg">
          {Object.entries(keep).map(([name, value]) =>
            value && name !== "statsPeriod" && name !== "start" && name !== "end" ? <input key={name} type="hidden" name={name} value={value} /> : null,
          )}
          <label className="text-xs font-medium text-muted">
            Start date (UTC)
            <input type="date" name="start" required defaultValue={customStart} className={`${inputClass} mt-1`} />
          </label>
          <label className="text-xs font-medium text-muted">
            End date (UTC, included)
            <input type="date" name="end" required defaultValue={customEnd} className={`${inputClass} mt-1`} />
          </label>
          <button type="submit" className={buttonClass.primary}>
            Apply range
          </button>
        </form>
      </details>
    </div>
  );
}
