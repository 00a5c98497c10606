/**
 * `client_report` items: what the SDK dropped before sending (docs/protocol.md §8.5). Each
 * `discarded_events` entry becomes an outcome `client_discard` with the SDK's category, reason and
 * quantity — the same counters as the server's own outcomes, so stats_v2 shows `before_send` drops
 * next to accepted and invalid items. The report is not itself counted (category `internal`).
 *
 * Outcomes are dated by the report's `timestamp` (clock-drift corrected) when it has a usable one.
 * A report that is not JSON, or dated over 30 days back or over 60 s ahead, is dropped (`invalid_json`,
 * `timestamp`); entries without a category, a reason of at most 200 characters or a positive integer
 * quantity are skipped and counted `invalid` (`invalid_json`). Relay accepts the `rate_limited_events`,
 * `filtered_events` and `filtered_sampling_events` lists only from trusted Relays; SDK reports'
 * copies are ignored here too.
 */
import type { IngestRecord } from "../model";
import { clockDriftOf, isObject, jsonObjectOf, MAX_SECS_IN_FUTURE, textOf, timestampOf } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor } from "./types";

const CATEGORY = "internal";
/** Relay's `max_secs_in_past` for client reports, as for events. */
const MAX_SECS_IN_PAST = 30 * 24 * 3600;
const MAX_REASON_LENGTH = 200;

function reportTime(raw: unknown, context: ItemContext): number | "invalid_json" | "timestamp" {
  if (raw === undefined || raw === null) return context.receivedAt;
  const seconds = timestampOf(raw);
  if (seconds === undefined) return "invalid_json";
  const ms = Math.round((seconds + clockDriftOf(context)) * 1000);
  if (context.receivedAt - ms > MAX_SECS_IN_PAST * 1000 || ms - context.receivedAt > MAX_SECS_IN_FUTURE * 1000) return "timestamp";
  return ms;
}

function discardOf(raw: unknown): { category: string; reason: string; quantity: number } | undefined {
  if (!isObject(raw)) return undefined;
  const category = textOf(raw.category);
  const reason = textOf(raw.reason);
  const { quantity } = raw;
  if (category === undefined || !/^[a-z_]{1,64}$/.test(category)) return undefined;
  if (reason === undefined || reason.length > MAX_REASON_LENGTH) return undefined;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity <= 0) return undefined;
  return { category, reason, quantity };
}

export const clientReportItem = (): ItemProcessor => ({
  category: CATEGORY,
  maxBytes: null,
  process(item, context) {
    const raw = jsonObjectOf(item);
    const timestamp = raw ? reportTime(raw.timestamp, context) : "invalid_json";
    const entries = raw?.discarded_events ?? [];
    if (typeof timestamp === "string" || !Array.isArray(entries)) {
      return { records: [outcome(context, "invalid", CATEGORY, typeof timestamp === "string" ? timestamp : "invalid_json")] };
    }
    const records: IngestRecord[] = [];
    let skipped = 0;
    for (const entry of entries) {
      const discard = discardOf(entry);
      if (!discard) skipped++;
      else records.push({ kind: "outcome", projectId: context.projectId, outcome: "client_discard", ...discard, timestamp });
    }
    if (skipped > 0) records.push(outcome(context, "invalid", CATEGORY, "invalid_json", skipped));
    return { records };
  },
});
