/**
 * Inbound filters as the item modules apply them (src/ingest/inbound-filters.ts): on the item's
 * parsed JSON before it is scrubbed, so the filters see the client's address and the SDK's own
 * text even when scrubbing removes them, as Relay filters before it scrubs.
 */
import { filterViewOf } from "../processing/normalize";
import type { JsonObject } from "./telemetry-values";
import { outcome, type ItemContext, type ItemResult } from "./types";

/**
 * The filter's reason to drop this item, or null to keep it (always null without filters: the
 * view is only read for projects with one on). `errors`: the item is an error event, whose
 * exception and message the error-only filters read.
 */
export function filterReasonOf(raw: JsonObject, context: ItemContext, errors: boolean): string | null {
  const filter = context.eventFilter;
  if (!filter) return null;
  const clientIp = context.clientAddress ?? context.clientIp;
  return filter(filterViewOf(raw, clientIp, errors), { clientIp, userAgent: context.userAgent });
}

/** An error event dropped by a filter: counted `filtered` with the filter's reason, nothing stored. */
export function filteredEvent(raw: JsonObject, context: ItemContext): ItemResult | null {
  const reason = filterReasonOf(raw, context, true);
  return reason === null ? null : { records: [outcome(context, "filtered", "error", reason)] };
}
