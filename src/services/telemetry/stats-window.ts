/**
 * The time window of Sentry's series endpoints (sessions, stats_v2): `statsPeriod` (`24h`, `14d`, …)
 * or `start` + `end`, cut into `interval`s, with the result's `start`, `end` and `intervals` as Sentry
 * writes them (`sentry/snuba/sessions_v2.py` `get_constrained_date_range`): the start is rounded
 * down and the end up to whole intervals, at most 1000 of them.
 *
 * Periscope keeps these counters per hour, so an interval is a whole number of hours that divides a
 * day (Sentry's one-hour resolution); shorter ones are a 400.
 */
import { AppError } from "../../errors";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_POINTS = 1000;
const MAX_PERIOD = 90 * DAY;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: HOUR, d: DAY, w: 7 * DAY };

export interface StatsWindow {
  start: number;
  end: number;
  interval: number;
}

/** Sentry's `parse_stats_period`: a number with an optional unit (s, m, h, d, w; none = seconds). */
function durationOf(raw: string, name: string): number {
  const match = /^(\d+)([smhdw]?)$/.exec(raw);
  if (!match) throw new AppError("bad_request", `invalid ${name}: ${raw} (expected a number and a unit, like 24h or 14d)`);
  return Number(match[1]) * (UNIT_MS[match[2] || "s"] ?? 1000);
}

function dateOf(raw: string, name: string): number {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
  if (Number.isNaN(ms)) throw new AppError("bad_request", `invalid ${name}: ${raw} (expected an ISO 8601 date)`);
  return ms;
}

export function statsWindowOf(url: URL, now: number): StatsWindow {
  const params = url.searchParams;
  const interval = durationOf(params.get("interval") || "1h", "interval");
  if (interval < HOUR || interval % HOUR !== 0) {
    throw new AppError("bad_request", "The interval has to be a multiple of the minimum interval of one hour.");
  }
  if (interval > DAY) throw new AppError("bad_request", "The interval has to be less than one day.");
  if (DAY % interval !== 0) throw new AppError("bad_request", "The interval should divide one day without a remainder.");

  const rawStart = params.get("start");
  const rawEnd = params.get("end");
  let start: number;
  let end: number;
  if (rawStart || rawEnd) {
    if (!rawStart || !rawEnd) throw new AppError("bad_request", "start and end are both required");
    start = dateOf(rawStart, "start");
    end = dateOf(rawEnd, "end");
    if (end <= start) throw new AppError("bad_request", "end must be after start");
  } else {
    end = now;
    start = now - durationOf(params.get("statsPeriod") || "24h", "statsPeriod");
  }
  return alignedWindow(start, end, interval, now);
}

/**
 * The window from `start` to `end` cut into `interval`s (a whole number of hours): the start rounded
 * down and the end up to whole intervals. Checks the 90-day limit and the number of points.
 */
export function alignedWindow(start: number, end: number, interval: number, now: number): StatsWindow {
  if (end - start > MAX_PERIOD) throw new AppError("bad_request", "The time range may be at most 90 days.");
  start = Math.min(start, now);
  const alignedStart = Math.floor(start / interval) * interval;
  const alignedEnd = alignedStart + Math.max(1, Math.ceil((end - alignedStart) / interval)) * interval;
  if ((alignedEnd - alignedStart) / interval > MAX_POINTS) {
    throw new AppError("bad_request", "Your interval and date range would create too many results. Use a larger interval, or a smaller date range.");
  }
  return { start: alignedStart, end: alignedEnd, interval };
}

/** Sentry's `isoformat_z`: whole seconds, `Z`. */
export const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

export function intervalsOf(window: StatsWindow): string[] {
  const out: string[] = [];
  for (let at = window.start; at < window.end; at += window.interval) out.push(isoSeconds(at));
  return out;
}
