/**
 * What an event row's `payload` holds (docs/adr/0005-store-the-sdk-payload.md). Ingest stores the
 * SDK's own JSON text, unchanged, beside the context its normalisation depended on, and the event
 * is normalised in full when it is read. Serialising every normalised event again was the largest
 * single cost of the ingest thread, and an event is read far less often than it is written.
 *
 * Rows written before hold the normalised event itself; both forms are read, so no migration.
 */
import type { IndexedEvent, NormalizedEvent, SourceMapNote } from "./types";
import { normalizeEvent, ownUserAgentOf, type NormalizeContext } from "./normalize";
import { isObject } from "./normalize-values";

/** Top-level key of the stored form. A normalised event has only its own known keys, never this one. */
const FORMAT_KEY = "periscope_sdk_event";

/** Normalisation is a pure function of the payload and this context, so the read reproduces the ingest. */
interface StoredContext {
  /** Unix ms. */
  received_at: number;
  sent_at?: string;
  /** The envelope header's event id, when there was one. */
  envelope_event_id?: string;
  /** The id ingest settled on: when the SDK sent no valid one, the one ingest made up. */
  event_id: string;
  /** Only when normalisation put it on the event (the SDK asked for the address to be inferred). */
  client_ip?: string;
  /** The HTTP request's User-Agent, only when the event's own request headers carry none (else unused). */
  user_agent?: string;
  /** Why JavaScript frames were not (fully) resolved through source maps (src/symbolication): the event's `errors`. */
  source_map_errors?: SourceMapNote[];
}

/** The stored form of an event that ingest normalised from `sdkJson` (the item's text) in `ctx`. */
export function sdkEventPayload(sdkJson: string, event: IndexedEvent, ctx: NormalizeContext, sourceMapNotes?: SourceMapNote[]): string {
  const context: StoredContext = { received_at: ctx.receivedAt, event_id: event.event_id };
  if (ctx.sentAt !== undefined) context.sent_at = ctx.sentAt;
  if (ctx.envelopeEventId !== undefined) context.envelope_event_id = ctx.envelopeEventId;
  if (ctx.clientIp !== undefined && event.user?.ip_address === ctx.clientIp) context.client_ip = ctx.clientIp;
  if (ctx.userAgent !== undefined && ownUserAgentOf(event.request) === undefined) context.user_agent = ctx.userAgent;
  if (sourceMapNotes !== undefined && sourceMapNotes.length > 0) context.source_map_errors = sourceMapNotes;
  // Concatenated, not serialised: `sdkJson` already parsed as one JSON object, so it is a valid value.
  return `{"${FORMAT_KEY}":1,"context":${JSON.stringify(context)},"event":${sdkJson}}`;
}

/** The normalised event of a stored payload, in either form. */
export function storedEventOf(payload: string): NormalizedEvent {
  const stored = JSON.parse(payload) as unknown;
  if (!isObject(stored) || stored[FORMAT_KEY] !== 1 || !isObject(stored.context)) return stored as NormalizedEvent;
  const context = stored.context as unknown as StoredContext;
  const event = normalizeEvent(stored.event, {
    receivedAt: context.received_at,
    sentAt: context.sent_at,
    envelopeEventId: context.envelope_event_id,
    madeUpEventId: context.event_id,
    clientIp: context.client_ip,
    userAgent: context.user_agent,
  });
  if (Array.isArray(context.source_map_errors)) event.errors.push(...context.source_map_errors);
  return event;
}
