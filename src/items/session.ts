/**
 * `session` items: one update carrying a session's full current state (docs/protocol.md §8.4,
 * Relay `processing/sessions/process.rs`). An update is dropped — outcome `invalid`, the rest of the
 * envelope unaffected — when it is not a JSON object or a field has the wrong type (`invalid_json`),
 * when `attrs.release` is missing or invalid (`invalid_release`), or when `started` or `timestamp`
 * is more than 5 days old or more than 60 s ahead (`timestamp`). Relay drops these silently;
 * Periscope counts them so the loss shows in stats_v2. An invalid environment is only removed.
 */
import { randomUUID } from "node:crypto";
import type { SessionUpdate } from "../model";
import {
  clockDriftOf,
  environmentOf,
  hexIdOf,
  isObject,
  isValidRelease,
  jsonObjectOf,
  MAX_SECS_IN_FUTURE,
  naturalOf,
  textOf,
  timestampOf,
} from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor } from "./types";

export const SESSION_CATEGORY = "session";

/** Relay's `max_session_secs_in_past`. */
const MAX_SESSION_SECS_IN_PAST = 5 * 24 * 3600;

export type SessionDropReason = "invalid_json" | "invalid_release" | "timestamp";

/** `attrs` of an update or of an aggregates item: a valid release is required. */
export function sessionAttrsOf(raw: unknown): { release: string; environment: string | null } | SessionDropReason {
  if (!isObject(raw)) return "invalid_release";
  const release = textOf(raw.release);
  if (release === undefined || !isValidRelease(release)) return "invalid_release";
  return { release, environment: environmentOf(raw.environment) };
}

/** A client time in Unix ms, corrected by the clock drift; `invalid_json` when it is no timestamp. */
export function sessionTimeOf(raw: unknown, drift: number): number | "invalid_json" {
  const seconds = timestampOf(raw);
  return seconds === undefined ? "invalid_json" : Math.round((seconds + drift) * 1000);
}

/** `timestamp` when a session time is too old or too far ahead to be accepted. */
export function sessionAgeProblem(ms: number, context: ItemContext): "timestamp" | null {
  if (context.receivedAt - ms > MAX_SESSION_SECS_IN_PAST * 1000) return "timestamp";
  if (ms - context.receivedAt > MAX_SECS_IN_FUTURE * 1000) return "timestamp";
  return null;
}

function didOf(raw: unknown): string | null {
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  return textOf(raw)?.slice(0, 256) ?? null;
}

export function sessionUpdateOf(raw: Record<string, unknown>, context: ItemContext): SessionUpdate | SessionDropReason {
  const sid = raw.sid === undefined ? randomUUID().replaceAll("-", "") : hexIdOf(raw.sid, 32);
  const drift = clockDriftOf(context);
  const started = sessionTimeOf(raw.started, drift);
  let timestamp = raw.timestamp === undefined ? context.receivedAt : sessionTimeOf(raw.timestamp, drift);
  const status = raw.status === undefined ? "ok" : textOf(raw.status);
  const errors = raw.errors === undefined ? 0 : naturalOf(raw.errors);
  const init = raw.init === undefined ? false : raw.init;
  const duration = raw.duration === undefined || raw.duration === null ? null : raw.duration;
  if (
    sid === undefined || started === "invalid_json" || timestamp === "invalid_json" || status === undefined ||
    errors === undefined || typeof init !== "boolean" || (duration !== null && (typeof duration !== "number" || duration < 0)) ||
    (raw.seq !== undefined && naturalOf(raw.seq) === undefined)
  ) {
    return "invalid_json";
  }
  // Relay: an update stamped before its session started is stamped at the start.
  if (timestamp < started) timestamp = started;
  const tooOld = sessionAgeProblem(timestamp, context) ?? sessionAgeProblem(started, context);
  if (tooOld) return tooOld;
  const attrs = sessionAttrsOf(raw.attrs);
  if (typeof attrs === "string") return attrs;
  return {
    sid,
    did: didOf(raw.did),
    // Without a `seq` the update's own time orders it (Relay uses the receive time).
    seq: naturalOf(raw.seq) ?? timestamp,
    init,
    started,
    timestamp,
    status: status.toLowerCase(),
    errors,
    duration,
    release: attrs.release,
    environment: attrs.environment,
  };
}

export const sessionItem = (): ItemProcessor => ({
  category: SESSION_CATEGORY,
  maxBytes: null,
  process(item, context) {
    const raw = jsonObjectOf(item);
    const update = raw ? sessionUpdateOf(raw, context) : "invalid_json";
    if (typeof update === "string") return { records: [outcome(context, "invalid", SESSION_CATEGORY, update)] };
    return {
      records: [
        { kind: "session_update", projectId: context.projectId, update },
        outcome(context, "accepted", SESSION_CATEGORY, null),
      ],
    };
  },
});
