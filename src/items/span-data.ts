/**
 * Span readers shared by `transaction` items (their `spans` list) and `span` items (v1 standalone
 * spans and v2 containers): validation as Relay does it (ids, both timestamps, end not before start)
 * and conversion to the one row shape storage keeps (`SpanData`). Payload reference:
 * docs/protocol.md §8.2 (v1 spans) and §8.3 (v2 spans).
 */
import { clip, databag, setOwn } from "../processing/normalize-values";
import type { Measurement, SpanData, TransactionSpan } from "../model";
import { hexIdOf, isObject, textOf, timestampOf, type JsonObject } from "./telemetry-values";

const MAX_TEXT = 8192;
const MAX_NAME = 200;

const text = (value: unknown, max: number) => {
  const found = textOf(value);
  return found === undefined ? undefined : clip(found, max);
};

/** Start and end in Unix seconds, shifted by the clock drift; undefined when either is missing or end < start. */
export function spanTimesOf(start: unknown, end: unknown, shift: number): { start: number; end: number } | undefined {
  const from = timestampOf(start);
  const to = timestampOf(end);
  if (from === undefined || to === undefined || to < from) return undefined;
  return { start: from + shift, end: to + shift };
}

/** A v1 span (transaction child or standalone span item), or undefined when Relay would reject it. */
export function v1SpanOf(raw: unknown, shift: number): TransactionSpan | undefined {
  if (!isObject(raw)) return undefined;
  const spanId = hexIdOf(raw.span_id, 16);
  const traceId = hexIdOf(raw.trace_id, 32);
  const times = spanTimesOf(raw.start_timestamp, raw.timestamp, shift);
  if (spanId === undefined || traceId === undefined || times === undefined) return undefined;
  const span: TransactionSpan = { span_id: spanId, trace_id: traceId, start_timestamp: times.start, timestamp: times.end };
  const parent = hexIdOf(raw.parent_span_id, 16);
  if (parent !== undefined) span.parent_span_id = parent;
  for (const key of ["op", "description", "status", "origin"] as const) {
    const value = text(raw[key], key === "description" ? MAX_TEXT : MAX_NAME);
    if (value !== undefined) span[key] = value;
  }
  if (typeof raw.exclusive_time === "number" && Number.isFinite(raw.exclusive_time)) span.exclusive_time = raw.exclusive_time;
  if (isObject(raw.tags)) {
    span.tags = Object.fromEntries(Object.entries(raw.tags).flatMap(([key, value]) => (typeof value === "string" ? [[key, clip(value, MAX_NAME)]] : [])));
  }
  if (isObject(raw.data)) span.data = databag(raw.data) as JsonObject;
  return span;
}

/**
 * Measurements as Relay keeps them: a finite `value` per name, `unit` defaulting to `none`.
 * Names are lower-cased (`ttfb.requestTime` → `ttfb.requesttime`, as Sentry shows them).
 */
export function measurementsOf(raw: unknown): Record<string, Measurement> {
  const out: Record<string, Measurement> = {};
  if (!isObject(raw)) return out;
  for (const [name, entry] of Object.entries(raw)) {
    if (!isObject(entry) || typeof entry.value !== "number" || !Number.isFinite(entry.value)) continue;
    if (!/^[a-z0-9_.-]{1,64}$/i.test(name)) continue;
    setOwn(out, name.toLowerCase(), { value: entry.value, unit: textOf(entry.unit) ?? "none" });
  }
  return out;
}

export const measurementValues = (measurements: Record<string, Measurement>): Record<string, number> =>
  Object.fromEntries(Object.entries(measurements).map(([name, m]) => [name, m.value]));

/** What a span row takes from its surroundings (transaction or envelope). */
export interface SpanContext {
  eventId: string | null;
  segmentId: string | null;
  segmentName: string | null;
  release: string | null;
  environment: string | null;
  sdkName: string | null;
}

export function spanDataOfV1(span: TransactionSpan, context: SpanContext, isSegment = false): SpanData {
  return {
    traceId: span.trace_id,
    spanId: span.span_id,
    parentSpanId: span.parent_span_id ?? null,
    segmentId: context.segmentId,
    eventId: context.eventId,
    isSegment,
    op: span.op ?? null,
    name: span.description ?? span.op ?? "",
    status: span.status ?? null,
    start: span.start_timestamp * 1000,
    end: span.timestamp * 1000,
    segmentName: context.segmentName,
    release: context.release,
    environment: context.environment,
    sdkName: context.sdkName,
    attributes: span.data ?? {},
    measurements: {},
  };
}

const WEB_VITAL_PREFIX = "browser.web_vital.";
const WEB_VITAL = /^browser\.web_vital\.([a-z]+)\.value$/;

/**
 * v2 attributes are `{type, value, unit}`: rows keep the values, and web vitals
 * (`browser.web_vital.lcp.value`) also become measurements (`lcp`). One pass over the keys, by
 * index: this runs for every span of every container, ≈ 17 attributes each.
 */
function attributesOf(raw: unknown): { attributes: Record<string, unknown>; measurements: Record<string, number> } {
  const attributes: Record<string, unknown> = {};
  const measurements: Record<string, number> = {};
  if (!isObject(raw)) return { attributes, measurements };
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const attribute = raw[key];
    if (!isObject(attribute) || !("value" in attribute)) continue;
    const value = databag(attribute.value);
    setOwn(attributes, key, value);
    if (typeof value === "number" && key.startsWith(WEB_VITAL_PREFIX)) {
      const vital = WEB_VITAL.exec(key)?.[1];
      if (vital !== undefined) measurements[vital] = value;
    }
  }
  return { attributes, measurements };
}

/**
 * One element of a v2 span container, or undefined when invalid. Segment name, release and
 * environment come from the span's own `sentry.*` attributes; web vitals (`browser.web_vital.lcp.value`)
 * become measurements (`lcp`), as Sentry shows them.
 */
export function spanDataOfV2(raw: unknown, shift: number, sdkName: string | null): SpanData | undefined {
  if (!isObject(raw)) return undefined;
  const spanId = hexIdOf(raw.span_id, 16);
  const traceId = hexIdOf(raw.trace_id, 32);
  const times = spanTimesOf(raw.start_timestamp, raw.end_timestamp, shift);
  if (spanId === undefined || traceId === undefined || times === undefined) return undefined;
  const { attributes, measurements } = attributesOf(raw.attributes);
  const textAttribute = (key: string) => (typeof attributes[key] === "string" ? clip(attributes[key], MAX_NAME) : null);
  const isSegment = raw.is_segment === true;
  // Streamed page loads and navigations carry a low-cardinality name ("Pageload"); with source `url`
  // Periscope names the segment by its path, as the same SDK names the transaction without streaming.
  const urlPath = typeof attributes["url.path"] === "string" ? attributes["url.path"] : undefined;
  const byPath = isSegment && attributes["sentry.segment.name.source"] === "url" && urlPath !== undefined;
  return {
    traceId,
    spanId,
    parentSpanId: hexIdOf(raw.parent_span_id, 16) ?? null,
    segmentId: hexIdOf(attributes["sentry.segment.id"], 16) ?? (isSegment ? spanId : null),
    eventId: null,
    isSegment,
    op: textAttribute("sentry.op"),
    name: text(raw.name, MAX_TEXT) ?? "",
    status: text(raw.status, MAX_NAME) ?? null,
    start: times.start * 1000,
    end: times.end * 1000,
    segmentName: byPath ? clip(urlPath, MAX_NAME) : textAttribute("sentry.segment.name"),
    release: textAttribute("sentry.release"),
    environment: textAttribute("sentry.environment"),
    sdkName: textAttribute("sentry.sdk.name") ?? sdkName,
    attributes,
    measurements,
  };
}
