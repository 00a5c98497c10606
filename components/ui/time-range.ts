/**
 * The time range of a page, as Sentry's UI puts it in the URL: `statsPeriod` (24h, 7d, …) or a
 * `start` and `end` date. Pure code with no Node imports, shared by the picker and the pages.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_SPAN = 90 * DAY;
const UNIT_MS: Record<string, number> = { h: HOUR, d: DAY, w: 7 * DAY };

/** The ranges the picker offers, shortest first. */
export const TIME_RANGE_PRESETS = [
  { period: "24h", label: "24h", title: "Last 24 hours" },
  { period: "7d", label: "7d", title: "Last 7 days" },
  { period: "14d", label: "14d", title: "Last 14 days" },
  { period: "30d", label: "30d", title: "Last 30 days" },
  { period: "90d", label: "90d", title: "Last 90 days" },
] as const;

export const DEFAULT_PERIOD = "24h";

export type TimeRange = { kind: "period"; period: string } | { kind: "absolute"; start: number; end: number };

export type ParsedTimeRange =
  | { ok: true; range: TimeRange; start: number; end: number }
  | { ok: false; message: string };

/** `2026-11-20` (a day, UTC) or a full ISO 8601 time; a day as an end means the end of that day. */
function dateOf(raw: string, name: "start" | "end"): number | undefined {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const text = day ? `${raw}T00:00:00Z` : /[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`;
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?([zZ]|[+-]\d\d:?\d\d)$/.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  return day && name === "end" ? ms + DAY : ms;
}

/**
 * Reads the range from the page's search parameters. Nothing given is the last 24 hours; anything
 * unreadable is a message naming the problem (the page shows it rather than guessing).
 */
export function parseTimeRange(params: { statsPeriod?: string; start?: string; end?: string }, now: number): ParsedTimeRange {
  const { statsPeriod, start: rawStart, end: rawEnd } = params;
  if (rawStart || rawEnd) {
    if (statsPeriod) return { ok: false, message: "Give either a period (statsPeriod) or a start and end date, not both." };
    if (!rawStart || !rawEnd) return { ok: false, message: "A custom time range needs both a start and an end date." };
    const start = dateOf(rawStart, "start");
    if (start === undefined) return { ok: false, message: `Invalid start date "${rawStart.slice(0, 40)}": expected a date like 2026-11-20.` };
    const end = dateOf(rawEnd, "end");
    if (end === undefined) return { ok: false, message: `Invalid end date "${rawEnd.slice(0, 40)}": expected a date like 2026-11-20.` };
    if (end <= start) return { ok: false, message: "The end date must be after the start date." };
    if (end - start > MAX_SPAN) return { ok: false, message: "The time range may be at most 90 days." };
    return { ok: true, range: { kind: "absolute", start, end }, start, end };
  }
  const period = statsPeriod || DEFAULT_PERIOD;
  const match = /^(\d{1,4})([hdw])$/.exec(period);
  if (!match) return { ok: false, message: `Invalid time range "${period.slice(0, 40)}": use a number and a unit (h, d or w), like 24h or 14d.` };
  const span = Number(match[1]) * UNIT_MS[match[2]!]!;
  if (span === 0) return { ok: false, message: "The time range must be longer than zero." };
  if (span > MAX_SPAN) return { ok: false, message: "The time range may be at most 90 days." };
  return { ok: true, range: { kind: "period", period }, start: now - span, end: now };
}

/** The search parameters that put this range in a URL (the others unset). */
export function timeRangeParams(range: TimeRange | null): { statsPeriod?: string; start?: string; end?: string } {
  if (!range) return {};
  if (range.kind === "period") return range.period === DEFAULT_PERIOD ? {} : { statsPeriod: range.period };
  // Whole days as dates (what the picker's date inputs hold); an end date means the end of that day.
  const start = range.start % DAY === 0 ? isoDay(range.start) : new Date(range.start).toISOString();
  const end = range.end % DAY === 0 ? isoDay(range.end - DAY) : new Date(range.end).toISOString();
  return { start, end };
}

/** `2026-11-20` (UTC) of a time; what a date input holds. */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Chart resolution for a span: hourly up to a week, 6-hourly up to 30 days, then daily (≤ 168 points). */
export function intervalFor(span: number): number {
  if (span <= 7 * DAY) return HOUR;
  if (span <= 30 * DAY) return 6 * HOUR;
  return DAY;
}
