import { AppError } from "../errors";
import { INTERNAL_ITEM_TYPES, type ItemRegistry } from "../items";
import { processEventPayload } from "../items/event";
import { filteredEvent } from "../items/filter";
import { eventJsonWithoutDisplayParts } from "../items/event-json";
import { scrubbedText, scrubberOf } from "../items/scrub";
import { outcome, type ItemContext, type ItemResult } from "../items/types";
import type { IngestRecord } from "../model";
import type { JsonObject } from "../processing/normalize-values";
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

/**
 * The envelope's records; a promise only when an item must wait (an event whose JavaScript frames
 * are resolved through source maps). Records keep the items' order either way.
 */
export function processEnvelopeOrDefer(envelope: Envelope, registry: ItemRegistry, context: ItemContext): Processed | Promise<Processed> {
  checkEnvelope(envelope, registry);
  const results: (ItemResult | Promise<ItemResult>)[] = [];
  let deferred = false;
  for (const item of envelope.items) {
    const processor = registry.processorFor(item.headers.type);
    let result: ItemResult | Promise<ItemResult>;
    try {
      result = processor.processOrDefer ? processor.processOrDefer(item, context) : processor.process(item, context);
    } catch {
      result = failedItem(context, processor.category);
    }
    if (result instanceof Promise) {
      deferred = true;
      result = result.catch(() => failedItem(context, processor.category));
    }
    results.push(result);
  }
  if (!deferred) return processed(results as ItemResult[], context);
  return Promise.all(results).then((settled) => processed(settled, context));
}

/** processEnvelopeOrDefer for registries that never defer (no symbolicator): tests and benchmarks. */
export function processEnvelope(envelope: Envelope, registry: ItemRegistry, context: ItemContext): Processed {
  const result = processEnvelopeOrDefer(envelope, registry, context);
  if (result instanceof Promise) throw new Error("this registry resolves source maps: use processEnvelopeOrDefer");
  return result;
}

/**
 * An item no processor could handle (a bug or an input nobody foresaw) is dropped and counted, never
 * allowed to take its sibling items down with it.
 */
function failedItem(context: ItemContext, category: string): ItemResult {
  return { records: [outcome(context, "invalid", category, "internal")] };
}

function processed(results: ItemResult[], context: ItemContext): Processed {
  const records: IngestRecord[] = [];
  let eventId: string | null = null;
  for (const result of results) {
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
export function processStoreBody(body: Buffer, maxEventBytes: number, context: ItemContext, registry: ItemRegistry): Processed | Promise<Processed> {
  if (body.length > maxEventBytes) {
    throw new AppError("payload_too_large", `envelope exceeded size limits for type 'event' (${SIZE_LIMITS_LINK})`);
  }
  const sdkJson = body.toString("utf8");
  const scrubber = scrubberOf(context);
  // Scrubbing reads the whole event; without it the display-only parts need only be valid (event-json.ts).
  let raw: unknown = scrubber ? undefined : eventJsonWithoutDisplayParts(body);
  try {
    raw ??= JSON.parse(sdkJson);
  } catch (error) {
    throw new AppError("bad_request", `invalid JSON data: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new AppError("bad_request", "invalid JSON data: the event must be a JSON object");
  }
  const answer = (done: ItemResult): Processed => ({ records: done.records, eventId: done.eventId ?? null });
  // Filters decide on the event as sent, before scrubbing (src/items/filter.ts).
  const filtered = filteredEvent(raw as JsonObject, context);
  if (filtered) return answer(filtered);
  const text = scrubber ? scrubbedText(raw as JsonObject, sdkJson, scrubber) : sdkJson;
  // Parsed whole when scrubbed: the resolver then writes into it rather than parsing the text again.
  const result = processEventPayload(raw as JsonObject, text, context, registry.symbolicator ?? null, scrubber !== null);
  return result instanceof Promise ? result.then(answer) : answer(result);
}
