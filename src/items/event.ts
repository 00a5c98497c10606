import { groupEvent } from "../processing/grouping";
import { indexedEventOf, userKeyOf, type NormalizeContext } from "../processing/normalize";
import type { JsonObject } from "../processing/normalize-values";
import { sdkEventPayload } from "../processing/stored-event";
import type { SourceMapNote } from "../processing/types";
import type { Symbolicator } from "../symbolication/symbolicator";
import { eventJsonOf } from "./event-json";
import { filteredEvent } from "./filter";
import { rescrubInPlace, scrubbedText, scrubberOf } from "./scrub";
import { jsonObjectOfText } from "./telemetry-values";
import type { EnvelopeItem } from "../ingest/envelope";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

const CATEGORY = "error";

/**
 * Processes one error/message event payload into an event record. `raw` is `sdkJson` parsed; the
 * text is what gets stored (stored-event.ts), so ingest normalises only what indexes the event.
 * `rawIsWhole`: `raw` holds every part of the text (it was parsed whole, for scrubbing), not the
 * indexing view of event-json.ts. An event with JavaScript frames of a project with uploaded source
 * maps is resolved first (async); every other event takes the synchronous path, as if no resolver existed.
 */
export function processEventPayload(
  raw: JsonObject,
  sdkJson: string,
  context: ItemContext,
  symbolicator: Symbolicator | null,
  rawIsWhole: boolean,
): ItemResult | Promise<ItemResult> {
  if (symbolicator?.wants(raw, context.projectId, context.receivedAt)) return resolvedEventPayload(rawIsWhole ? raw : null, sdkJson, context, symbolicator);
  return eventRecords(raw, sdkJson, context, symbolicator?.notesWithoutArtifacts(raw, context.projectId, context.receivedAt));
}

/**
 * The resolved frames are written into the whole event, which is stored in place of the SDK's text;
 * only an indexing view (`whole` null: display-only parts left out, event-json.ts) is parsed again.
 */
async function resolvedEventPayload(whole: JsonObject | null, sdkJson: string, context: ItemContext, symbolicator: Symbolicator): Promise<ItemResult> {
  const full = whole ?? (JSON.parse(sdkJson) as JsonObject);
  const notes = await symbolicator.resolve(full, context.projectId, context.receivedAt);
  if (notes === null) return eventRecords(full, sdkJson, context, symbolicator.notesWithoutArtifacts(full, context.projectId, context.receivedAt));
  // The resolved frames bring source context from the uploaded files: scrubbed like the rest.
  const scrubber = scrubberOf(context);
  if (scrubber) rescrubInPlace(full, scrubber);
  return eventRecords(full, JSON.stringify(full), context, notes);
}

/** The synchronous path alone, for events that never need source maps (self-monitoring's own). */
export function processEventPayloadNow(raw: JsonObject, sdkJson: string, context: ItemContext): ItemResult {
  return eventRecords(raw, sdkJson, context, undefined);
}

function eventRecords(raw: JsonObject, sdkJson: string, context: ItemContext, sourceMapNotes: SourceMapNote[] | undefined): ItemResult {
  const normalizeContext: NormalizeContext = {
    receivedAt: context.receivedAt,
    sentAt: typeof context.envelopeHeaders.sent_at === "string" ? context.envelopeHeaders.sent_at : undefined,
    envelopeEventId: typeof context.envelopeHeaders.event_id === "string" ? context.envelopeHeaders.event_id : undefined,
    clientIp: context.clientIp,
    userAgent: context.userAgent,
  };
  const event = indexedEventOf(raw, normalizeContext);
  return {
    eventId: event.event_id,
    records: [
      {
        kind: "event",
        projectId: context.projectId,
        event,
        payload: sdkEventPayload(sdkJson, event, normalizeContext, sourceMapNotes),
        grouping: groupEvent(event),
        userKey: userKeyOf(event),
      },
      outcome(context, "accepted", CATEGORY, null),
    ],
  };
}

/**
 * The event's JSON as ingest processes it and the text it stores. With data scrubbing (the default)
 * the whole payload is parsed and scrubbed first, breadcrumbs and extra included; the SDK's own
 * text is stored when nothing was filtered. Without, the display-only parts need only be valid
 * JSON (event-json.ts). Undefined when the payload is not a JSON object; `filtered` when an
 * inbound filter drops it, decided before scrubbing (src/items/filter.ts).
 */
export function ingestJsonOf(
  payload: Buffer,
  sdkJson: string,
  context: ItemContext,
): { raw: JsonObject; text: string; whole: boolean; filtered?: undefined } | { filtered: ItemResult } | undefined {
  const scrubber = scrubberOf(context);
  if (!scrubber) {
    const raw = eventJsonOf(payload, sdkJson);
    if (!raw) return undefined;
    const filtered = filteredEvent(raw, context);
    return filtered ? { filtered } : { raw, text: sdkJson, whole: false };
  }
  const raw = jsonObjectOfText(sdkJson);
  if (!raw) return undefined;
  const filtered = filteredEvent(raw, context);
  return filtered ? { filtered } : { raw, text: scrubbedText(raw, sdkJson, scrubber), whole: true };
}

/**
 * `event` items: invalid JSON drops this item only (outcome `invalid_json`), as Relay does. `process`
 * never resolves source maps; the pipeline calls `processOrDefer`, which does when a symbolicator is set.
 */
export const eventItem = (maxBytes: number, symbolicator: Symbolicator | null = null): ItemProcessor => {
  const run = (item: EnvelopeItem, context: ItemContext, resolver: Symbolicator | null) => {
    const json = ingestJsonOf(item.payload, item.payload.toString("utf8"), context);
    if (json?.filtered) return json.filtered;
    return json ? processEventPayload(json.raw, json.text, context, resolver, json.whole) : { records: [outcome(context, "invalid", CATEGORY, "invalid_json")] };
  };
  return {
    category: CATEGORY,
    maxBytes,
    process: (item, context) => run(item, context, null) as ItemResult,
    processOrDefer: (item, context) => run(item, context, symbolicator),
  };
};
