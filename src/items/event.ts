import { groupEvent } from "../processing/grouping";
import { normalizeEvent, userKeyOf } from "../processing/normalize";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

const CATEGORY = "error";

/** Processes one error/message event payload (already parsed JSON) into an event record. */
export function processEventPayload(raw: unknown, context: ItemContext): ItemResult {
  const event = normalizeEvent(raw, {
    receivedAt: context.receivedAt,
    sentAt: typeof context.envelopeHeaders.sent_at === "string" ? context.envelopeHeaders.sent_at : undefined,
    envelopeEventId: typeof context.envelopeHeaders.event_id === "string" ? context.envelopeHeaders.event_id : undefined,
    clientIp: context.clientIp,
    userAgent: context.userAgent,
  });
  return {
    eventId: event.event_id,
    records: [
      { kind: "event", projectId: context.projectId, event, grouping: groupEvent(event), userKey: userKeyOf(event) },
      outcome(context, "accepted", CATEGORY, null),
    ],
  };
}

/** `event` items: invalid JSON drops this item only (outcome `invalid_json`), as Relay does. */
export const eventItem = (maxBytes: number): ItemProcessor => ({
  category: CATEGORY,
  maxBytes,
  process(item, context) {
    let raw: unknown;
    try {
      raw = JSON.parse(item.payload.toString("utf8"));
    } catch {
      return { records: [outcome(context, "invalid", CATEGORY, "invalid_json")] };
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      return { records: [outcome(context, "invalid", CATEGORY, "invalid_json")] };
    }
    return processEventPayload(raw, context);
  },
});
