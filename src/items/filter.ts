/**
 * Inbound filters as the item modules apply them (src/ingest/inbound-filters.ts): on the item's
 * parsed JSON before it is scrubbed, so the filters see the client's address and the SDK's own
 * text even when scrubbing removes them, as Relay filters before it scrubs.
 */
import { filterViewOf } from "../processing/normalize";
import type { FilterView } from "../processing/types";
import { isObject, jsonObjectOfText, type JsonObject } from "./telemetry-values";
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

const attributeText = (attributes: unknown, key: string): string | undefined => {
  const attribute = isObject(attributes) ? attributes[key] : undefined;
  return isObject(attribute) && typeof attribute.value === "string" ? attribute.value : undefined;
};

/**
 * A v2 span as the filters see it (Relay's SpanV2: release and user agent from its attributes; no
 * exception, message or URL). The connection's address still applies, as for every item.
 */
function spanViewOf(span: unknown, context: ItemContext): { view: FilterView; userAgent: string | undefined } {
  const attributes = isObject(span) ? span.attributes : undefined;
  return {
    view: { release: attributeText(attributes, "sentry.release"), logentry: undefined, user: undefined, request: undefined, exception: [] },
    userAgent: attributeText(attributes, "user_agent.original") ?? context.userAgent,
  };
}

/**
 * A v2 span container of a project with filters on: its spans a filter drops are taken out and
 * counted `filtered` per reason; the rest stay in the container, read where spans are written as
 * before. Null when nothing is dropped (or the container is malformed: its reader says why). Parsed
 * here on the main thread only for projects with a filter on; others pass untouched.
 */
export function filteredSpanContainer(json: string, itemCount: unknown, context: ItemContext): { json: string; itemCount: number; outcomes: ItemResult["records"] } | null {
  const filter = context.eventFilter;
  if (!filter) return null;
  const payload = jsonObjectOfText(json);
  const items = payload?.items;
  if (!payload || !Array.isArray(items) || items.length !== itemCount) return null;
  const clientIp = context.clientAddress ?? context.clientIp;
  const kept: unknown[] = [];
  const dropped = new Map<string, number>();
  for (const span of items) {
    const { view, userAgent } = spanViewOf(span, context);
    const reason = filter(view, { clientIp, userAgent });
    if (reason === null) kept.push(span);
    else dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
  }
  if (dropped.size === 0) return null;
  const outcomes = [...dropped].map(([reason, quantity]) => outcome(context, "filtered", "span", reason, quantity));
  return { json: JSON.stringify({ ...payload, items: kept }), itemCount: kept.length, outcomes };
}
