/**
 * Monitor schedules: when the next check-in is expected and when it counts as missed. Crontabs are
 * read by croner (5 fields or a nickname such as @hourly, in the monitor's timezone); intervals are
 * calendar steps from the last check-in. Both count from the check-in's minute, as Sentry does.
 */
import { Cron } from "croner";
import { MONITOR_SCHEDULE_UNITS, type Monitor, type MonitorConfig, type MonitorSchedule } from "../../model";

/** Sentry's defaults, in minutes. */
export const DEFAULT_CHECKIN_MARGIN = 1;
export const DEFAULT_MAX_RUNTIME = 30;
const MAX_MINUTES = 40_320; // 28 days, Sentry's bound for margin and runtime
const MAX_THRESHOLD = 720;
const MINUTE_MS = 60_000;

/** Why a config cannot be used (a short reason code for outcomes, and a sentence for people). */
export class MonitorConfigError extends Error {
  constructor(
    readonly reason: "invalid_schedule" | "invalid_timezone" | "invalid_monitor_config",
    message: string,
  ) {
    super(message);
    this.name = "MonitorConfigError";
  }
}

function cronOf(value: string, timezone: string | null): Cron {
  return new Cron(value, { paused: true, mode: "5-part", ...(timezone ? { timezone } : {}) });
}

function validTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function checkMinutes(name: string, value: number | null, max: number): void {
  if (value === null) return;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new MonitorConfigError("invalid_monitor_config", `${name} must be a whole number from 1 to ${max} (got ${value})`);
  }
}

/** Throws MonitorConfigError naming the first problem; answers the config as it will be stored. */
export function validateMonitorConfig(config: MonitorConfig): MonitorConfig {
  const { schedule } = config;
  if (config.timezone !== null && !validTimezone(config.timezone)) {
    throw new MonitorConfigError("invalid_timezone", `timezone '${config.timezone}' is not an IANA time zone`);
  }
  checkMinutes("checkin_margin", config.checkinMargin, MAX_MINUTES);
  checkMinutes("max_runtime", config.maxRuntime, MAX_MINUTES);
  checkMinutes("failure_issue_threshold", config.failureIssueThreshold, MAX_THRESHOLD);
  checkMinutes("recovery_threshold", config.recoveryThreshold, MAX_THRESHOLD);
  if (schedule.type === "crontab") {
    const value = schedule.value.trim().replace(/\s+/g, " ");
    try {
      if (cronOf(value, config.timezone).nextRun() === null) throw new Error("it never runs");
    } catch (error) {
      throw new MonitorConfigError("invalid_schedule", `schedule '${schedule.value}' is not a valid crontab: ${(error as Error).message}`);
    }
    return { ...config, schedule: { type: "crontab", value } };
  }
  if (!Number.isInteger(schedule.value) || schedule.value < 1) {
    throw new MonitorConfigError("invalid_schedule", `an interval schedule needs a whole number of at least 1 (got ${schedule.value})`);
  }
  if (!MONITOR_SCHEDULE_UNITS.includes(schedule.unit)) {
    throw new MonitorConfigError("invalid_schedule", `interval unit '${String(schedule.unit)}' is not one of ${MONITOR_SCHEDULE_UNITS.join(", ")}`);
  }
  return config;
}

/** Calendar months, the day kept or clamped to the month's last (Jan 31 + 1 month = Feb 28), as Sentry's relativedelta. */
function addMonths(date: Date, months: number): number {
  const month = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(month / 12);
  const monthOfYear = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, monthOfYear + 1, 0)).getUTCDate();
  return Date.UTC(year, monthOfYear, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes());
}

function addInterval(from: number, value: number, unit: Exclude<MonitorSchedule, { type: "crontab" }>["unit"]): number {
  const date = new Date(from);
  switch (unit) {
    case "minute":
      return from + value * MINUTE_MS;
    case "hour":
      return from + value * 60 * MINUTE_MS;
    case "day":
      return from + value * 24 * 60 * MINUTE_MS;
    case "week":
      return from + value * 7 * 24 * 60 * MINUTE_MS;
    case "month":
      return addMonths(date, value);
    case "year":
      return addMonths(date, value * 12);
  }
}

/** The first scheduled time after `reference` (Unix ms), counted from its minute. */
export function nextScheduled(config: MonitorConfig, reference: number): number {
  const minute = Math.floor(reference / MINUTE_MS) * MINUTE_MS;
  const { schedule } = config;
  if (schedule.type === "interval") return addInterval(minute, schedule.value, schedule.unit);
  const next = cronOf(schedule.value, config.timezone).nextRun(new Date(minute));
  // A crontab that validated always runs again; a year ahead keeps a broken one from firing at once.
  return next ? next.getTime() : minute + 365 * 24 * 60 * MINUTE_MS;
}

/** The next expected check-in after `reference` and the time past which it is missed. */
export function nextExpected(config: MonitorConfig, reference: number): { nextCheckIn: number; nextCheckInLatest: number } {
  const nextCheckIn = nextScheduled(config, reference);
  return { nextCheckIn, nextCheckInLatest: nextCheckIn + (config.checkinMargin ?? DEFAULT_CHECKIN_MARGIN) * MINUTE_MS };
}

/** When an in-progress check-in that started at `started` times out. */
export function timeoutAt(monitor: Pick<Monitor, "config">, started: number): number {
  return started + (monitor.config.maxRuntime ?? DEFAULT_MAX_RUNTIME) * MINUTE_MS;
}

/** A schedule as people read it: the crontab, or "every 2 hours". */
export function describeSchedule(schedule: MonitorSchedule): string {
  if (schedule.type === "crontab") return schedule.value;
  return `every ${schedule.value} ${schedule.unit}${schedule.value === 1 ? "" : "s"}`;
}
