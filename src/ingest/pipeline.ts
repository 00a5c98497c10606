import { AppError } from "../errors";
import { INTERNAL_ITEM_TYPES, type ItemRegistry } from "../items";
import { processEventPayload } from "../items/event";
import { eventJsonWithoutDisplayParts } from "../items/event-json";
import { outcome, type ItemContext, type ItemResult } from "../items/types";
import type { IngestRecord } from "../model";
import type { Envelope } from "./envelope";

export interface Processed {
  records: IngestRecord[];
  /** The id the 200 answer names; absent for envelopes without an event (sessions, reports). */
  eventId: string | null;
}

const SIZE_LIMITS_LINK = "https://develop.sentry.dev/sdk/envelopes/#size-limits";

/**
 * Size rules apply to the whole envelope before any item is processed, as Relay's
 * check_envelope_size_limits does: one oversized item rejects the envelope with 413, so the SDK
 * records the loss instead of the server silently keeping half of it.
 */
function checkEnvelope(envelope: Envelope, registry: ItemRegistry): void {
  let events = 0;
  for (const item of envelope.items) {
    const type = item.headers.type;
    if (INTERNAL_ITEM_TYPES.has(type)) throw new AppError("bad_request", "envelope contains internal items");
    const { maxBytes } = registry.processorFor(type);
    if (maxBytes !== null && item.payload.length > maxBytes) {
      throw new AppError("payload_too_large", `envelope exceeded size limits for type '${type}' (${SIZE_LIMITS_LINK})`);
    }
    if (type === "event" && ++events > 1) {
      throw new AppError("payload_too_large", `envelope exceeded size limits for type 'event' (${SIZE_LIMITS_LINK})`, [
        "an envelope may carry at most one event item",
      ]);
    }
  }
}

export function processEnvelope(envelope: Envelope, registry: ItemRegistry, context: ItemContext): Processed {
  checkEnvelope(envelope, registry);
  const records: IngestRecord[] = [];
  let eventId: string | null = null;
  for (const item of envelope.items) {
    const processor = registry.processorFor(item.headers.type);
    let result: ItemResult;
    try {
      result = processor.process(item, context);
    } catch {
      // An item no processor could handle (a bug or an input nobody foresaw) is dropped and counted,
      // never allowed to take its sibling items down with it.
      result = { records: [outcome(context, "invalid", processor.category, "internal")] };
    }
    records.push(...result.records);
    eventId ??= result.eventId ?? null;
  }
  const headerId = context.envelopeHeaders.event_id;
  if (eventId === null && typeof headerId === "string" && /^[0-9a-f]{32}$/i.test(headerId.replace(/-/g, ""))) {
    eventId = headerId.replace(/-/g, "").toLowerCase();
  }
  return { records, eventId };
}

/** The legacy store endpoint: the body is one event as JSON. */
export function processStoreBody(body: Buffer, maxEventBytes: number, context: ItemContext): Processed {
  if (body.length > maxEventBytes) {
    throw new AppError("payload_too_large", `envelope exceeded size limits for type 'event' (${SIZE_LIMITS_LINK})`);
  }
  const sdkJson = body.toString("utf8");
  let raw: unknown = eventJsonWithoutDisplayParts(body);
  try {
    raw ??= JSON.parse(sdkJson);
  } catch (error) {
    throw new AppError("bad_request", `invalid JSON data: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new AppError("bad_request", "invalid JSON data: the event must be a JSON object");
  }
  const result = processEventPayload(raw, sdkJson, context);
  return { records: result.records, eventId: result.eventId ?? null };
}
