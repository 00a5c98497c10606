import { groupEvent } from "../processing/grouping";
import { indexedEventOf, userKeyOf, type NormalizeContext } from "../processing/normalize";
import { sdkEventPayload } from "../processing/stored-event";
import { eventJsonOf } from "./event-json";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

const CATEGORY = "error";

/**
 * Processes one error/message event payload into an event record. `raw` is `sdkJson` parsed; the
 * text is what gets stored (stored-event.ts), so ingest normalises only what indexes the event.
 */
export function processEventPayload(raw: unknown, sdkJson: string, context: ItemContext): ItemResult {
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
        payload: sdkEventPayload(sdkJson, event, normalizeContext),
        grouping: groupEvent(event),
        userKey: userKeyOf(event),
      },
      outcome(context, "accepted", CATEGORY, null),
    ],
  };
}

/** `event` items: invalid JSON drops this item only (outcome `invalid_json`), as Relay does. */
export const eventItem = (maxBytes: number): ItemProcessor => ({
  category: CATEGORY,
  maxBytes,
  process(item, context) {
    const sdkJson = item.payload.toString("utf8");
    const raw = eventJsonOf(item.payload, sdkJson);
    return raw ? processEventPayload(raw, sdkJson, context) : { records: [outcome(context, "invalid", CATEGORY, "invalid_json")] };
  },
});
