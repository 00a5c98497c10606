import type { Breadcrumb, Level } from "@/src/processing/types";
import { formatAbsolute, formatClock, formatValue } from "../format";

const levelText: Record<Level, string> = {
  fatal: "text-red-700 dark:text-red-400",
  error: "text-red-600 dark:text-red-400",
  warning: "text-amber-700 dark:text-amber-400",
  info: "text-sky-700 dark:text-sky-400",
  debug: "text-subtle",
};

const levelDot: Record<Level, string> = {
  fatal: "bg-red-700",
  error: "bg-red-500",
  warning: "bg-amber-500",
  info: "bg-sky-500",
  debug: "bg-zinc-400",
};

/** Grid columns: on phones type and time share a line and the description goes below. */
const rowClass = "grid grid-cols-[1fr_auto] gap-x-3 px-3 sm:grid-cols-[9rem_minmax(0,1fr)_4.5rem_6.5rem]";

/**
 * Newest first, as Sentry lists them; times are UTC clock times (they are read against each other).
 * A long trail scrolls inside its box so the sections below stay in reach.
 */
export function Breadcrumbs({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  const newestFirst = [...breadcrumbs].reverse();
  return (
    <div className="overflow-hidden rounded-lg border border-line bg-surface text-xs" data-testid="breadcrumbs">
      <div className={`${rowClass} hidden bg-surface-2 py-2 text-[11px] font-semibold tracking-wide text-muted uppercase sm:grid`} aria-hidden>
        <span>Type</span>
        <span>Description</span>
        <span>Level</span>
        <span className="text-right">Time (UTC)</span>
      </div>
      <ol className="max-h-[30rem] overflow-y-auto">
        {newestFirst.map((crumb, index) => {
          const level = crumb.level ?? "info";
          return (
            <li key={index} className={`${rowClass} border-t border-line py-1.5 first:border-t-0 sm:first:border-t`}>
              <span className="order-1 flex min-w-0 items-center gap-1.5 font-medium">
                <span aria-hidden className={`size-1.5 shrink-0 rounded-full ${levelDot[level]}`} />
                <span className="truncate">{crumb.category ?? crumb.type ?? "default"}</span>
              </span>
              <span className="order-3 col-span-2 font-mono [overflow-wrap:anywhere] sm:order-2 sm:col-span-1">{describe(crumb)}</span>
              <span className={`hidden sm:order-3 sm:block ${levelText[level]}`}>{level}</span>
              <span className="order-2 text-right font-mono text-muted sm:order-4" title={formatAbsolute(crumb.timestamp * 1000)}>
                {formatClock(crumb.timestamp * 1000)}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The message, else the parts of `data` Sentry's SDKs put there (http requests, navigations). */
function describe(crumb: Breadcrumb): string {
  const data = crumb.data ?? {};
  if (crumb.message) return crumb.message;
  if (typeof data.url === "string") {
    const method = typeof data.method === "string" ? `${data.method} ` : "";
    const status = data.status_code !== undefined ? ` [${formatValue(data.status_code)}]` : "";
    return `${method}${data.url}${status}`;
  }
  if (typeof data.from === "string" || typeof data.to === "string") return `${formatValue(data.from)} → ${formatValue(data.to)}`;
  return Object.keys(data).length > 0 ? JSON.stringify(data) : "";
}
