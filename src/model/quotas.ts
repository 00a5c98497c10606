/**
 * Quotas (issue 33 item 4): at most `limit` items of one data category per window, for a project or
 * for a whole organisation, and spike protection, an automatic per-project hourly limit. Over a
 * limit, the items of that category are refused (429, or dropped beside accepted items) and counted
 * as outcome `rate_limited` with the quota's reason code. The enforcement is src/ingest/quotas.ts.
 */

/**
 * The data categories a quota can limit, as Sentry/Relay name them (DataCategory). `error` covers
 * Sentry's error family (`default`, `error`, `security`), as Sentry's error quota does;
 * `attachment` and `log_byte` count bytes, the others items.
 */
export const QUOTA_CATEGORIES = ["error", "transaction", "span", "session", "attachment", "log_item", "log_byte"] as const;
export type QuotaCategory = (typeof QUOTA_CATEGORIES)[number];

/** Windows: minute, hour and day are aligned to the epoch (UTC), as Relay's are; month is the calendar month in UTC. */
export const QUOTA_WINDOWS = ["minute", "hour", "day", "month"] as const;
export type QuotaWindow = (typeof QUOTA_WINDOWS)[number];

export type QuotaScope = "project" | "organization";

/** The reason codes refused items are counted under (outcome `rate_limited`) and `X-Sentry-Rate-Limits` names. */
export const QUOTA_REASONS = { project: "project_quota", organization: "org_quota", spike: "spike_protection" } as const;

export interface Quota {
  category: QuotaCategory;
  window: QuotaWindow;
  /** Items (bytes for attachment and log_byte) per window; 0 refuses every item of the category. */
  limit: number;
}

/** A project's own quotas and the quotas of its organisation that apply to it too. */
export interface QuotaSet {
  project: Quota[];
  organization: Quota[];
}

/** Sentry's project option for spike protection (a boolean); off unless set. */
export const SPIKE_PROTECTION_OPTION = "quotas:spike-protection";

/** The window's first second and the first second after it (Unix seconds, UTC), for a time in Unix ms. */
export function quotaWindowAt(window: QuotaWindow, atMs: number): { start: number; end: number } {
  const now = Math.floor(atMs / 1000);
  if (window === "month") {
    const date = new Date(atMs);
    const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
    const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
    return { start, end };
  }
  const seconds = window === "minute" ? 60 : window === "hour" ? 3600 : 86_400;
  const start = Math.floor(now / seconds) * seconds;
  return { start, end: start + seconds };
}

/**
 * The shared counter a quota counts in: whose (`p` project, `o` organisation, `s` a project's spike
 * protection, then the id), which category, which window. Read by ingest and the settings pages.
 */
export function quotaCounterName(owner: "p" | "o" | "s", id: string, category: QuotaCategory, window: QuotaWindow): string {
  return `${owner}${id}:${category}:${window}`;
}
