/**
 * `sessions` items: pre-aggregated sessions ("request mode", e.g. Node servers), one bucket per
 * started minute and user (docs/protocol.md §8.4). Each bucket counts as one session item, as
 * in Relay: a bucket with a bad `started` or counts is dropped alone (`invalid_json`, `timestamp`);
 * a missing or invalid `attrs.release` drops them all (`invalid_release`).
 */
import type { IngestRecord, SessionAggregate } from "../model";
import { sessionAgeProblem, sessionAttrsOf, sessionTimeOf, SESSION_CATEGORY, type SessionDropReason } from "./session";
import { clockDriftOf, isObject, jsonObjectOf, naturalOf, textOf } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor } from "./types";

const COUNTS = ["exited", "errored", "abnormal", "unhandled", "crashed"] as const;

function aggregateOf(
  raw: unknown,
  attrs: { release: string; environment: string | null },
  context: ItemContext,
): SessionAggregate | SessionDropReason {
  if (!isObject(raw)) return "invalid_json";
  const started = sessionTimeOf(raw.started, clockDriftOf(context));
  if (started === "invalid_json") return started;
  const counts = COUNTS.map((name) => (raw[name] === undefined ? 0 : naturalOf(raw[name])));
  const [exited, errored, abnormal, unhandled, crashed] = counts;
  if (exited === undefined || errored === undefined || abnormal === undefined || unhandled === undefined || crashed === undefined) {
    return "invalid_json";
  }
  const tooOld = sessionAgeProblem(started, context);
  if (tooOld) return tooOld;
  const did = typeof raw.did === "number" ? String(raw.did) : (textOf(raw.did)?.slice(0, 256) ?? null);
  return { started, did, exited, errored, abnormal, unhandled, crashed, ...attrs };
}

export const sessionsItem = (): ItemProcessor => ({
  category: SESSION_CATEGORY,
  maxBytes: null,
  process(item, context) {
    const raw = jsonObjectOf(item);
    if (!raw || !Array.isArray(raw.aggregates)) return { records: [outcome(context, "invalid", SESSION_CATEGORY, "invalid_json")] };
    const attrs = sessionAttrsOf(raw.attrs);
    if (typeof attrs === "string") {
      return { records: [outcome(context, "invalid", SESSION_CATEGORY, attrs, Math.max(raw.aggregates.length, 1))] };
    }
    const records: IngestRecord[] = [];
    const dropped = new Map<SessionDropReason, number>();
    for (const entry of raw.aggregates) {
      const aggregate = aggregateOf(entry, attrs, context);
      if (typeof aggregate === "string") dropped.set(aggregate, (dropped.get(aggregate) ?? 0) + 1);
      else records.push({ kind: "session_aggregate", projectId: context.projectId, aggregate });
    }
    if (records.length > 0) records.push(outcome(context, "accepted", SESSION_CATEGORY, null, records.length));
    for (const [reason, quantity] of dropped) records.push(outcome(context, "invalid", SESSION_CATEGORY, reason, quantity));
    return { records };
  },
});
