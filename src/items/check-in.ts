/**
 * `check_in` items (Crons, docs/protocol.md §6): one run of a scheduled job, optionally with the
 * monitor's config to create or update it. The item is parsed here; the monitor service
 * (src/services/monitors/check-ins.ts, through `CheckInSink`) validates the config and stores the
 * check-in before the envelope is answered. A bad check-in is dropped with an `invalid` outcome
 * naming why (`invalid_json`, `invalid_schedule`, `invalid_timezone`, `invalid_monitor_config`,
 * `monitor_not_found`); the envelope's other items are unaffected.
 */
import { randomUUID } from "node:crypto";
import type { CheckInInput, MonitorConfig, MonitorScheduleUnit } from "../model";
import { environmentOf, hexIdOf, isObject, jsonObjectOf, textOf, type JsonObject } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

export const CHECK_IN_CATEGORY = "monitor";
/** Relay's limit for one check-in (docs/protocol.md §6.4). */
const MAX_CHECK_IN_BYTES = 100 * 1024;
const NIL_ID = "0".repeat(32);

/** What stores a parsed check-in: null when it was taken, else the reason it was refused. */
export interface CheckInSink {
  record(projectId: string, input: CheckInInput, receivedAt: number): Promise<string | null>;
}

const numberOrNull = (value: unknown): number | null | undefined =>
  value === undefined || value === null ? null : typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** The SDK's monitor_config as sent; its values are checked by the service (validateMonitorConfig). */
export function monitorConfigOf(raw: JsonObject): MonitorConfig | "invalid_schedule" | "invalid_monitor_config" {
  const schedule = raw.schedule;
  if (!isObject(schedule)) return "invalid_schedule";
  let parsed: MonitorConfig["schedule"];
  if (schedule.type === "crontab" && typeof schedule.value === "string") parsed = { type: "crontab", value: schedule.value };
  else if (schedule.type === "interval" && typeof schedule.value === "number" && typeof schedule.unit === "string") {
    parsed = { type: "interval", value: schedule.value, unit: schedule.unit as MonitorScheduleUnit };
  } else return "invalid_schedule";
  const margin = numberOrNull(raw.checkin_margin);
  const runtime = numberOrNull(raw.max_runtime);
  const failures = numberOrNull(raw.failure_issue_threshold);
  const recoveries = numberOrNull(raw.recovery_threshold);
  const timezone = raw.timezone === undefined || raw.timezone === null ? null : textOf(raw.timezone);
  if (margin === undefined || runtime === undefined || failures === undefined || recoveries === undefined || timezone === undefined) {
    return "invalid_monitor_config";
  }
  return { schedule: parsed, checkinMargin: margin, maxRuntime: runtime, timezone, failureIssueThreshold: failures, recoveryThreshold: recoveries };
}

/** The check-in, or the reason it cannot be one. */
export function checkInOf(raw: JsonObject): CheckInInput | string {
  const slug = textOf(raw.monitor_slug);
  if (slug === undefined || slug.length > 128) return "invalid_json";
  const status = raw.status;
  if (status !== "ok" && status !== "error" && status !== "in_progress") return "invalid_json";
  const guid = raw.check_in_id === undefined ? randomUUID().replaceAll("-", "") : hexIdOf(raw.check_in_id, 32);
  if (guid === undefined) return "invalid_json";
  const duration = numberOrNull(raw.duration);
  if (duration === undefined || (duration !== null && duration < 0)) return "invalid_json";
  let config: MonitorConfig | null = null;
  if (raw.monitor_config !== undefined && raw.monitor_config !== null) {
    if (!isObject(raw.monitor_config)) return "invalid_monitor_config";
    const parsed = monitorConfigOf(raw.monitor_config);
    if (typeof parsed === "string") return parsed;
    config = parsed;
  }
  const trace = isObject(raw.contexts) && isObject(raw.contexts.trace) ? hexIdOf(raw.contexts.trace.trace_id, 32) : undefined;
  const release = textOf(raw.release);
  return {
    guid,
    monitorSlug: slug,
    status,
    duration: duration === null ? null : Math.round(duration * 1000),
    environment: environmentOf(raw.environment),
    release: release !== undefined && release.length <= 200 ? release : null,
    traceId: trace ?? null,
    config,
  };
}

export const NIL_CHECK_IN_ID = NIL_ID;

export const checkInItem = (sink: CheckInSink): ItemProcessor => {
  const invalid = (context: ItemContext, reason: string): ItemResult => ({ records: [outcome(context, "invalid", CHECK_IN_CATEGORY, reason)] });
  const parse = (item: Parameters<ItemProcessor["process"]>[0], context: ItemContext): CheckInInput | ItemResult => {
    const raw = jsonObjectOf(item);
    const input = raw ? checkInOf(raw) : "invalid_json";
    return typeof input === "string" ? invalid(context, input) : input;
  };
  return {
    category: CHECK_IN_CATEGORY,
    maxBytes: MAX_CHECK_IN_BYTES,
    // Without the service (tests of the pipeline alone) a valid check-in is counted, not stored.
    process(item, context) {
      const input = parse(item, context);
      return "records" in input ? input : { records: [outcome(context, "unsupported", CHECK_IN_CATEGORY, "check_in")] };
    },
    async processOrDefer(item, context) {
      const input = parse(item, context);
      if ("records" in input) return input;
      const refused = await sink.record(context.projectId, input, context.receivedAt);
      return refused === null ? { records: [outcome(context, "accepted", CHECK_IN_CATEGORY, null)] } : invalid(context, refused);
    },
  };
};
