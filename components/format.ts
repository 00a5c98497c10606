/**
 * Pure formatting helpers for server-rendered pages. Relative times are computed from one `now`
 * fixed per request, and absolute times are printed in UTC, so the HTML never depends on the
 * server's locale or time zone and client components never re-format (no hydration mismatch).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function formatRelative(ms: number, now: number): string {
  const diff = Math.max(0, now - ms);
  if (diff < 45_000) return "just now";
  if (diff < HOUR) return `${Math.max(1, Math.round(diff / MINUTE))}min ago`;
  if (diff < DAY) return `${Math.round(diff / HOUR)}h ago`;
  if (diff < 30 * DAY) return `${Math.round(diff / DAY)}d ago`;
  if (diff < 365 * DAY) return `${Math.round(diff / (30 * DAY))}mo ago`;
  return `${Math.round(diff / (365 * DAY))}y ago`;
}

/** `2026-03-01 14:05:09 UTC` */
export function formatAbsolute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `14:05:09.123` (UTC) for breadcrumbs, which are read relative to each other. */
export function formatClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/** 1234 → "1.2k", 1234567 → "1.2M"; exact below 1000. */
export function formatCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${trimZero(value / 1000)}k`;
  return `${trimZero(value / 1_000_000)}M`;
}

function trimZero(value: number): string {
  return (value >= 100 ? Math.round(value).toString() : value.toFixed(1)).replace(/\.0$/, "");
}

export function formatPercent(part: number, total: number): string {
  if (total <= 0) return "0%";
  const percent = (part / total) * 100;
  return percent > 0 && percent < 1 ? "<1%" : `${Math.round(percent)}%`;
}

/** Short form of a 32-hex event id, as Sentry shows it. */
export function shortEventId(eventId: string): string {
  return eventId.slice(0, 8);
}

/** Any JSON-ish value as one readable line (strings unquoted). */
export function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** 512 → "512 B", 2048 → "2 KiB", 5_300_000 → "5.1 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trimZero(bytes / 1024)} KiB`;
  return `${trimZero(bytes / (1024 * 1024))} MiB`;
}
