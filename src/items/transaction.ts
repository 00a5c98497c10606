/**
 * `transaction` items (docs/protocol.md §8.2). Relay's `validate_transaction` decides what is
 * kept: a transaction without `timestamp` or `start_timestamp`, ending before it starts, without a
 * `contexts.trace` holding `trace_id` and `span_id`, or with a span lacking ids or times (or ending
 * before it starts) is rejected as a whole — outcome `invalid`, reason `invalid_transaction`, for
 * category `transaction` (1) and `span` (its spans + 1), as Relay counts a dropped transaction.
 *
 * The rest is normalised like an error event (tags, contexts, user, request, breadcrumbs, release),
 * level `info` unless sent. All times move by the same clock-drift shift as the event `timestamp`,
 * so durations are kept. The transaction is stored whole, and also as span rows: its root (the
 * segment, from `contexts.trace`) and every child span.
 */
import { normalizeEvent } from "../processing/normalize";
import type { SpanData, TransactionPayload, TransactionSpan } from "../model";
import { measurementsOf, measurementValues, spanDataOfV1, spanTimesOf, v1SpanOf, type SpanContext } from "./span-data";
import { filterReasonOf } from "./filter";
import { scrubberOf, scrubInPlace } from "./scrub";
import { hexIdOf, isObject, jsonObjectOf, textOf, timestampOf, type JsonObject } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

const CATEGORY = "transaction";
const REASON = "invalid_transaction";
/** Relay's name for a transaction sent without one. */
const UNLABELED = "<unlabeled transaction>";
const SOURCES = new Set(["custom", "url", "route", "view", "component", "task", "sanitized", "unknown"]);

function rejected(context: ItemContext, reason: string, spans: number): ItemResult {
  return dropped(context, "invalid", reason, spans);
}

function dropped(context: ItemContext, kind: "invalid" | "filtered", reason: string, spans: number): ItemResult {
  return {
    records: [outcome(context, kind, CATEGORY, reason), outcome(context, kind, "span", reason, spans + 1)],
  };
}

interface Validated {
  trace: JsonObject & { trace_id: string; span_id: string };
  spans: TransactionSpan[];
}

/** Relay's validate_transaction, with every span read on the way (unshifted). */
function validate(raw: JsonObject): Validated | undefined {
  if (spanTimesOf(raw.start_timestamp, raw.timestamp, 0) === undefined) return undefined;
  const trace = isObject(raw.contexts) ? raw.contexts.trace : undefined;
  if (!isObject(trace)) return undefined;
  const traceId = hexIdOf(trace.trace_id, 32);
  const spanId = hexIdOf(trace.span_id, 16);
  if (traceId === undefined || spanId === undefined) return undefined;
  const rawSpans = raw.spans === undefined || raw.spans === null ? [] : raw.spans;
  if (!Array.isArray(rawSpans)) return undefined;
  const spans: TransactionSpan[] = [];
  for (const rawSpan of rawSpans) {
    const span = v1SpanOf(rawSpan, 0);
    if (!span) return undefined;
    spans.push(span);
  }
  return { trace: { ...trace, trace_id: traceId, span_id: spanId }, spans };
}

function transactionInfoOf(raw: unknown): TransactionPayload["transaction_info"] {
  const source = isObject(raw) ? textOf(raw.source) : undefined;
  return source !== undefined && SOURCES.has(source) ? { source } : undefined;
}

export function processTransaction(raw: JsonObject, context: ItemContext): ItemResult {
  const rawSpanCount = Array.isArray(raw.spans) ? raw.spans.length : 0;
  const validated = validate(raw);
  if (!validated) return rejected(context, REASON, rawSpanCount);
  // The default level goes in the context, not into a copy `{ ...raw, level }`: that spread made
  // every transaction without a level a hidden class of its own (src/ingest/cors.ts says why it matters).
  const event = normalizeEvent(raw, {
    defaultLevel: "info",
    receivedAt: context.receivedAt,
    sentAt: typeof context.envelopeHeaders.sent_at === "string" ? context.envelopeHeaders.sent_at : undefined,
    envelopeEventId: typeof context.envelopeHeaders.event_id === "string" ? context.envelopeHeaders.event_id : undefined,
    clientIp: context.clientIp,
    userAgent: context.userAgent,
  });
  const end = timestampOf(raw.timestamp) ?? event.timestamp;
  const start = timestampOf(raw.start_timestamp) ?? end;
  const shift = event.timestamp - end;
  const name = event.transaction ?? UNLABELED;
  const spans = validated.spans.map((span) => ({ ...span, start_timestamp: span.start_timestamp + shift, timestamp: span.timestamp + shift }));
  const transactionInfo = transactionInfoOf(raw.transaction_info);
  // Added to the normalised event, in the order a spread of it would give, not `{ ...event, type, … }`:
  // that spread gave every transaction a hidden class of its own in Node 20's V8 (src/ingest/cors.ts).
  const contexts = { ...event.contexts, trace: { ...event.contexts.trace, trace_id: validated.trace.trace_id, span_id: validated.trace.span_id } };
  const payload: TransactionPayload = Object.assign(
    event,
    { type: "transaction" as const, transaction: name },
    transactionInfo ? { transaction_info: transactionInfo } : {},
    { start_timestamp: start + shift, contexts, spans, measurements: measurementsOf(raw.measurements) },
  );
  return {
    eventId: payload.event_id,
    records: [
      { kind: "transaction", projectId: context.projectId, transaction: payload, spans: spanRowsOf(payload) },
      outcome(context, "accepted", CATEGORY, null),
      outcome(context, "accepted", "span", null, spans.length + 1),
    ],
  };
}

/** The transaction as span rows: its root span (the segment) first, then its children. */
function spanRowsOf(payload: TransactionPayload): SpanData[] {
  const trace = payload.contexts.trace ?? {};
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const rootId = String(trace.span_id);
  const spanContext: SpanContext = {
    eventId: payload.event_id,
    segmentId: rootId,
    segmentName: payload.transaction,
    release: payload.release ?? null,
    environment: payload.environment,
    sdkName: payload.sdk?.name ?? null,
  };
  const parent = hexIdOf(trace.parent_span_id, 16);
  const root: TransactionSpan = {
    span_id: rootId,
    trace_id: String(trace.trace_id),
    start_timestamp: payload.start_timestamp,
    timestamp: payload.timestamp,
    description: payload.transaction,
    ...(parent ? { parent_span_id: parent } : {}),
    ...(text(trace.op) ? { op: text(trace.op) } : {}),
    ...(text(trace.status) ? { status: text(trace.status) } : {}),
    ...(isObject(trace.data) ? { data: trace.data } : {}),
  };
  return [
    { ...spanDataOfV1(root, spanContext, true), measurements: measurementValues(payload.measurements) },
    ...payload.spans.map((span) => spanDataOfV1(span, spanContext)),
  ];
}

export const transactionItem = (maxBytes: number): ItemProcessor => ({
  category: CATEGORY,
  maxBytes,
  process(item, context) {
    const raw = jsonObjectOf(item);
    if (!raw) return rejected(context, "invalid_json", 0);
    // Before scrubbing, as for errors (src/items/filter.ts); counted like a dropped transaction, spans included.
    const reason = filterReasonOf(raw, context, false);
    if (reason !== null) return dropped(context, "filtered", reason, Array.isArray(raw.spans) ? raw.spans.length : 0);
    scrubInPlace(raw, scrubberOf(context));
    return processTransaction(raw, context);
  },
});
