/**
 * Cron monitors and their check-ins (`check_in` items, docs/protocol.md). Times are Unix ms;
 * `checkinMargin` and `maxRuntime` are minutes, as the SDKs send them.
 */
export type MonitorScheduleUnit = "year" | "month" | "week" | "day" | "hour" | "minute";
export const MONITOR_SCHEDULE_UNITS: readonly MonitorScheduleUnit[] = ["year", "month", "week", "day", "hour", "minute"];

export type MonitorSchedule = { type: "crontab"; value: string } | { type: "interval"; value: number; unit: MonitorScheduleUnit };

export interface MonitorConfig {
  schedule: MonitorSchedule;
  /** Minutes a check-in may be late before it counts as missed; null: Sentry's default (1). */
  checkinMargin: number | null;
  /** Minutes an in-progress check-in may run before it counts as timed out; null: the default (30). */
  maxRuntime: number | null;
  /** IANA zone the crontab is read in; null: UTC. */
  timezone: string | null;
  /** Consecutive failed check-ins that open an issue; null: 1. */
  failureIssueThreshold: number | null;
  /** Consecutive ok check-ins that resolve it; null: 1. */
  recoveryThreshold: number | null;
}

export type MonitorStatus = "active" | "disabled";
/** `failing` while a failure issue is open (failure threshold reached, recovery not yet). */
export type MonitorHealth = "ok" | "failing";
export type CheckInStatus = "ok" | "error" | "in_progress" | "missed" | "timeout";
export const CHECK_IN_STATUSES: readonly CheckInStatus[] = ["ok", "error", "in_progress", "missed", "timeout"];

export interface Monitor {
  id: string;
  organizationId: string;
  projectId: string;
  slug: string;
  name: string;
  status: MonitorStatus;
  config: MonitorConfig;
  dateCreated: number;
  /** When the next check-in is expected; null until the first one or when disabled. */
  nextCheckIn: number | null;
  /** After this the job records a missed check-in. */
  nextCheckInLatest: number | null;
  lastCheckIn: number | null;
  lastStatus: CheckInStatus | null;
  lastEnvironment: string | null;
  health: MonitorHealth;
  /** The failure issue while failing (and the last one after recovery). */
  incidentIssueId: string | null;
}

export interface CheckIn {
  id: string;
  monitorId: string;
  projectId: string;
  /** The SDK's check_in_id (32 hex); generated for missed check-ins. */
  guid: string;
  status: CheckInStatus;
  /** Milliseconds; null while in progress and for missed check-ins. */
  duration: number | null;
  environment: string | null;
  release: string | null;
  traceId: string | null;
  dateAdded: number;
  dateUpdated: number;
  /** The schedule's time this check-in answered (missed check-ins: the time that passed). */
  expectedTime: number | null;
}

/** A check-in as an SDK sent it, validated (src/items/check-in.ts). */
export interface CheckInInput {
  guid: string;
  monitorSlug: string;
  status: "ok" | "error" | "in_progress";
  /** Milliseconds. */
  duration: number | null;
  environment: string | null;
  release: string | null;
  traceId: string | null;
  config: MonitorConfig | null;
}
