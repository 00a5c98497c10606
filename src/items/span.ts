/**
 * `span` items, both forms (docs/protocol.md §8.3):
 *
 * - v2 container, `content_type: application/vnd.sentry.items.span.v2+json`, payload
 *   `{"items":[…]}` with `item_count` equal to the number of items. @sentry/browser 11 streams every
 *   span this way by default — page loads and navigations arrive as segment spans (`is_segment`), web
 *   vitals (INP, CLS, LCP) as standalone child spans — and so does any SDK with
 *   `traceLifecycle: "stream"`. A container without `items` or with a wrong `item_count` is rejected
 *   whole (`invalid_span`, quantity `item_count`); otherwise each invalid element alone.
 * - v1 standalone span, no content type: the payload is one v1 span (older SDKs' web vitals).
 *
 * A span needs a 32-hex `trace_id`, a 16-hex `span_id`, a start and an end not before it
 * (`invalid_span`); one ending over 30 days back or over 60 s ahead is dropped (`timestamp`).
 * Category `span`, one per span.
 */
import type { ReadIngestRecord, SpanContainerRecord, SpanData } from "../model";
import { measurementsOf, measurementValues, spanDataOfV1, spanDataOfV2, v1SpanOf } from "./span-data";
import { filteredSpanContainer } from "./filter";
import { scrubberForSettings, scrubberOf, scrubInPlace } from "./scrub";
import { clockDriftOf, isObject, jsonObjectOf, jsonObjectOfText, MAX_SECS_IN_FUTURE, textOf } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

const CATEGORY = "span";
export const SPAN_V2_CONTENT_TYPE = "application/vnd.sentry.items.span.v2+json";
/** Spans older than this are beyond retention (Relay's `max_secs_in_past`). */
const MAX_SECS_IN_PAST = 30 * 24 * 3600;

/** The most spans a container may hold (docs/protocol.md §8.3). */
const MAX_CONTAINER_SPANS = 1000;

/** A container's `item_count` header as outcomes count it: a positive integer, else 1. */
const itemCountOf = (count: unknown): number => (typeof count === "number" && Number.isInteger(count) && count > 0 ? count : 1);

/** The spans a container says it holds (`item_count`, clamped), for bounds taken before it is read. */
export function declaredSpans(record: SpanContainerRecord): number {
  return Math.min(itemCountOf(record.itemCount), MAX_CONTAINER_SPANS);
}

/** What reading spans needs from their envelope besides the clock drift and SDK name: the outcomes' project and time. */
type SpanContext = Pick<ItemContext, "projectId" | "receivedAt">;

function timeProblem(span: SpanData, context: SpanContext): "timestamp" | null {
  if (context.receivedAt - span.end > MAX_SECS_IN_PAST * 1000) return "timestamp";
  if (span.end - context.receivedAt > MAX_SECS_IN_FUTURE * 1000) return "timestamp";
  return null;
}

/** Span records for the valid spans, outcomes for all: accepted, and invalid per reason. */
function spanResult(context: SpanContext, spans: (SpanData | undefined)[]): ItemResult & { records: ReadIngestRecord[] } {
  const records: ReadIngestRecord[] = [];
  const dropped = new Map<string, number>();
  for (const span of spans) {
    const problem = span ? timeProblem(span, context) : "invalid_span";
    if (span && problem === null) records.push({ kind: "span", projectId: context.projectId, span });
    else if (problem !== null) dropped.set(problem, (dropped.get(problem) ?? 0) + 1);
  }
  if (records.length > 0) records.push(outcome(context, "accepted", CATEGORY, null, records.length));
  for (const [reason, quantity] of dropped) records.push(outcome(context, "invalid", CATEGORY, reason, quantity));
  return { records };
}

const sdkNameOf = (context: ItemContext) => textOf(context.envelopeHeaders.sdk?.name) ?? null;

function processContainer(payload: unknown, itemCount: unknown, context: SpanContext, shift: number, sdkName: string | null): { records: ReadIngestRecord[] } {
  const declared = itemCountOf(itemCount);
  if (!isObject(payload)) return { records: [outcome(context, "invalid", CATEGORY, "invalid_json", declared)] };
  const { items } = payload;
  if (!Array.isArray(items) || itemCount !== items.length) {
    return { records: [outcome(context, "invalid", CATEGORY, "invalid_span", declared)] };
  }
  const spans = items.map((item) => spanDataOfV2(item, shift, sdkName));
  // Children name their segment as it was when they ended; its final name is on the segment itself.
  const segmentNames = new Map(spans.flatMap((span) => (span?.isSegment ? [[span.spanId, span.segmentName] as const] : [])));
  for (const span of spans) {
    const segmentName = span?.segmentId ? segmentNames.get(span.segmentId) : undefined;
    // Each span object was made just above for this container alone.
    if (span && segmentName !== undefined) span.segmentName = segmentName;
  }
  return spanResult(context, spans);
}

/**
 * The span and outcome records of a container the pipeline left unread. Never throws: like the
 * pipeline does for any item, input nobody foresaw is counted as `internal`, not allowed to fail the
 * commit it shares with other requests.
 */
export function readSpanContainer(record: SpanContainerRecord): ReadIngestRecord[] {
  const context = { projectId: record.projectId, receivedAt: record.receivedAt };
  try {
    const payload = jsonObjectOfText(record.json);
    if (payload) scrubInPlace(payload, scrubberForSettings(record.privacy));
    return processContainer(payload, record.itemCount, context, record.shift, record.sdkName).records;
  } catch {
    return [outcome(context, "invalid", CATEGORY, "internal")];
  }
}

/** A v1 standalone span; segment, release and environment come from its `data` as JS v8–10 sent them. */
function processV1(payload: unknown, context: ItemContext): ItemResult {
  const span = v1SpanOf(payload, clockDriftOf(context));
  if (!span || !isObject(payload)) return spanResult(context, [undefined]);
  const data = span.data ?? {};
  const first = (...keys: string[]) => keys.map((key) => textOf(data[key])).find((value) => value !== undefined) ?? null;
  const isSegment = payload.is_segment === true;
  const row = spanDataOfV1(span, {
    eventId: null,
    segmentId: textOf(payload.segment_id) ?? (isSegment ? span.span_id : null),
    segmentName: first("sentry.segment.name", "transaction"),
    release: first("sentry.release", "release"),
    environment: first("sentry.environment", "environment"),
    sdkName: sdkNameOf(context),
  }, isSegment);
  return spanResult(context, [{ ...row, measurements: measurementValues(measurementsOf(payload.measurements)) }]);
}

/** No per-item limit: a container may hold up to 1000 spans; the envelope limits still apply. */
export const spanItem = (): ItemProcessor => ({
  category: CATEGORY,
  maxBytes: null,
  process(item, context) {
    const contentType = typeof item.headers.content_type === "string" ? item.headers.content_type.toLowerCase() : "";
    const isContainer = contentType.split(";")[0]?.trim() === SPAN_V2_CONTENT_TYPE;
    if (isContainer) {
      // Inbound filters first, on the spans as sent (src/items/filter.ts); only projects with one on pay.
      const json = item.payload.toString("utf8");
      const filtered = filteredSpanContainer(json, item.headers.item_count, context);
      // Read where the spans are written (SpanContainerRecord): on SQLite, the commit thread.
      const container: SpanContainerRecord = {
        kind: "span_container", projectId: context.projectId, json: filtered?.json ?? json,
        itemCount: filtered ? filtered.itemCount : item.headers.item_count, receivedAt: context.receivedAt, shift: clockDriftOf(context), sdkName: sdkNameOf(context),
      };
      // Absent when nobody looked the settings up: the defaults apply where it is read.
      if (context.scrubber !== undefined) container.privacy = context.scrubber?.privacy ?? null;
      if (!filtered) return { records: [container] };
      return { records: filtered.itemCount > 0 ? [container, ...filtered.outcomes] : filtered.outcomes };
    }
    const payload = jsonObjectOf(item);
    if (!payload) return { records: [outcome(context, "invalid", CATEGORY, "invalid_json")] };
    scrubInPlace(payload, scrubberOf(context));
    return processV1(payload, context);
  },
});
