import type { ReactNode } from "react";
import type { Level } from "@/src/processing/types";
import type { Issue } from "@/src/model";
import { formatAbsolute, formatRelative } from "./format";
import { FilteredText } from "./issue/filtered";

export const buttonClass = {
  primary:
    "inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg shadow-sm hover:opacity-90 disabled:opacity-60",
  secondary:
    "inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium text-fg shadow-sm hover:border-line-strong hover:bg-surface-2 disabled:opacity-60",
  ghost: "inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium text-muted hover:bg-surface-2 hover:text-fg",
} as const;

export const inputClass =
  "w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm text-fg shadow-sm placeholder:text-subtle focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-lg border border-line bg-surface shadow-sm ${className}`}>{children}</div>;
}

/** A titled block of the issue page (Exception, Breadcrumbs, Request ...). */
export function Section({
  title,
  children,
  aside,
  id,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactNode;
  id?: string;
}) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="min-w-0">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={id ? `${id}-title` : undefined} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

const levelStyles: Record<Level, string> = {
  fatal: "bg-red-700 text-white dark:bg-red-600",
  error: "bg-red-100 text-red-800 dark:bg-red-500/20 dark:text-red-300",
  warning: "bg-amber-100 text-amber-800 dark:bg-amber-500/20 dark:text-amber-300",
  info: "bg-sky-100 text-sky-800 dark:bg-sky-500/20 dark:text-sky-300",
  debug: "bg-zinc-200 text-zinc-700 dark:bg-zinc-500/25 dark:text-zinc-300",
};

const levelBars: Record<Level, string> = {
  fatal: "bg-red-700 dark:bg-red-500",
  error: "bg-red-500",
  warning: "bg-amber-500",
  info: "bg-sky-500",
  debug: "bg-zinc-400",
};

export function LevelBadge({ level }: { level: Level }) {
  return (
    <span className={`inline-flex items-center rounded px-1.5 py-0.5 text-[11px] leading-none font-semibold uppercase ${levelStyles[level]}`}>
      {level}
    </span>
  );
}

/** The coloured stripe at the left edge of an issue row. */
export function LevelBar({ level }: { level: Level }) {
  return <span aria-hidden className={`absolute inset-y-2 left-0 w-1 rounded-r ${levelBars[level]}`} />;
}

export function Pill({ children, tone = "neutral", title }: { children: ReactNode; tone?: "neutral" | "accent" | "green" | "red" | "amber"; title?: string }) {
  const tones = {
    neutral: "border-line bg-surface-2 text-muted",
    accent: "border-transparent bg-accent-soft text-accent",
    green: "border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
    red: "border-transparent bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300",
    amber: "border-transparent bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300",
  } as const;
  return (
    <span title={title} className={`inline-flex items-center rounded-full border px-2 py-0.5 text-[11px] leading-none font-medium ${tones[tone]}`}>
      {children}
    </span>
  );
}

/** Status as Sentry words it: regressed and new are substatuses of unresolved. */
export function StatusPill({ issue }: { issue: Pick<Issue, "status" | "substatus"> }) {
  if (issue.status === "resolved") return <Pill tone="green">Resolved</Pill>;
  if (issue.status === "ignored") return <Pill>Ignored</Pill>;
  if (issue.substatus === "regressed") return <Pill tone="red" title="Resolved before, then seen again">Regressed</Pill>;
  if (issue.substatus === "escalating") return <Pill tone="red" title="Archived until escalating, then escalated">Escalating</Pill>;
  if (issue.substatus === "new") return <Pill tone="accent" title="First seen recently">New</Pill>;
  return <Pill tone="amber">Unresolved</Pill>;
}

/** Relative time rendered on the server from the request's `now`; the exact time is in the tooltip. */
export function RelativeTime({ ms, now }: { ms: number; now: number }) {
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatAbsolute(ms)}>
      {formatRelative(ms, now)}
    </time>
  );
}

/** 24 hourly buckets as bars; the hour labels are in the tooltip of each bar. */
export function Sparkline({ buckets, now, className = "" }: { buckets: number[]; now: number; className?: string }) {
  const max = Math.max(1, ...buckets);
  const width = 96;
  const height = 24;
  const gap = 1;
  const barWidth = (width - gap * (buckets.length - 1)) / buckets.length;
  const total = buckets.reduce((sum, n) => sum + n, 0);
  const currentHour = Math.floor(now / 3_600_000) * 3_600_000;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className={`text-accent ${className}`}
      role="img"
      aria-label={`${total} events in the last 24 hours`}
    >
      {buckets.map((count, index) => {
        const barHeight = count === 0 ? 1 : Math.max(2, (count / max) * height);
        const hour = currentHour - (buckets.length - 1 - index) * 3_600_000;
        return (
          <rect
            key={index}
            x={index * (barWidth + gap)}
            y={height - barHeight}
            width={barWidth}
            height={barHeight}
            rx={0.75}
            className={count === 0 ? "fill-line" : "fill-current"}
          >
            <title>{`${formatAbsolute(hour).slice(0, 16)}: ${count}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function EmptyState({ title, children, icon }: { title: string; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      {icon ?? (
        <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" className="mb-3 text-subtle" aria-hidden>
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
      )}
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <div className="mt-1 max-w-xl text-muted">{children}</div> : null}
    </div>
  );
}

/** Rows of label → value; values may be anything renderable. */
export function KeyValueTable({ rows, compact = false }: { rows: [string, ReactNode][]; compact?: boolean }) {
  return (
    <table className="w-full table-fixed text-[13px]">
      <tbody>
        {rows.map(([key, value], index) => (
          <tr key={`${key}-${index}`} className="border-t border-line first:border-t-0">
            <th scope="row" className={`${compact ? "w-24" : "w-2/5 sm:w-48"} px-3 py-1.5 text-left align-top font-medium break-words text-muted`}>
              {key}
            </th>
            <td className="px-3 py-1.5 align-top font-mono text-xs leading-5 [overflow-wrap:anywhere] whitespace-pre-wrap">
              {typeof value === "string" ? <FilteredText text={value} /> : value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
