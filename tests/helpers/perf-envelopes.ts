/**
 * Envelopes of transactions with chosen durations and statuses, as the SDKs send them: legacy
 * `transaction` events (SDK 8/9 shape, with a child span and web-vital measurements) and SDK 11's
 * v2 span containers (a segment with a child and web-vital attributes). The performance tests send
 * both for one transaction name and compute the expected figures here, apart from Periscope's code.
 */
import { randomBytes } from "node:crypto";

export interface SampleSpec {
  name: string;
  /** ms */
  duration: number;
  status: "ok" | "error" | "internal_error" | "cancelled";
  /** Unix ms the segment ended. */
  end: number;
  lcp?: number;
  environment?: string;
  release?: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A legacy transaction event envelope (one item), with a `db.query` child span and LCP as a measurement. */
export function legacyTransactionEnvelope(dsn: string, spec: SampleSpec): { body: string; traceId: string } {
  const traceId = hex(16);
  const spanId = hex(8);
  const start = (spec.end - spec.duration) / 1000;
  const payload = {
    event_id: hex(16), type: "transaction", platform: "javascript", transaction: spec.name, transaction_info: { source: "route" },
    start_timestamp: start, timestamp: spec.end / 1000, environment: spec.environment ?? "production", release: spec.release ?? "shop@1.0.0",
    contexts: { trace: { trace_id: traceId, span_id: spanId, op: "pageload", status: spec.status } },
    spans: [{
      trace_id: traceId, span_id: hex(8), parent_span_id: spanId, op: "db.query", description: "SELECT * FROM carts WHERE id = 7",
      start_timestamp: start, timestamp: start + spec.duration / 2000, status: "ok",
    }],
    measurements: spec.lcp === undefined ? {} : { lcp: { value: spec.lcp, unit: "millisecond" } },
    sdk: { name: "sentry.javascript.browser", version: "8.55.0" },
  };
  // No sent_at: no clock-drift shift, so the durations come back as sent (SAMPLE_DURATIONS).
  const header = { event_id: payload.event_id, dsn, sdk: payload.sdk };
  return { body: [JSON.stringify(header), JSON.stringify({ type: "transaction" }), JSON.stringify(payload)].join("\n"), traceId };
}

/** A v2 span container envelope: the segment (op pageload) and one child, LCP as a web-vital attribute. */
export function streamedSegmentEnvelope(dsn: string, spec: SampleSpec): { body: string; traceId: string } {
  const traceId = hex(16);
  const spanId = hex(8);
  const start = (spec.end - spec.duration) / 1000;
  const common = {
    "sentry.segment.name": { type: "string", value: spec.name },
    "sentry.environment": { type: "string", value: spec.environment ?? "production" },
    "sentry.release": { type: "string", value: spec.release ?? "shop@1.0.0" },
  };
  const segmentAttributes: Record<string, { type: string; value: string | number }> = { ...common, "sentry.op": { type: "string", value: "pageload" } };
  if (spec.lcp !== undefined) segmentAttributes["browser.web_vital.lcp.value"] = { type: "double", value: spec.lcp };
  const items = [
    { trace_id: traceId, span_id: spanId, name: spec.name, status: spec.status === "ok" ? "ok" : "error", is_segment: true, start_timestamp: start, end_timestamp: spec.end / 1000, attributes: segmentAttributes },
    {
      trace_id: traceId, span_id: hex(8), parent_span_id: spanId, name: "GET /api/cart", status: "ok", is_segment: false, start_timestamp: start,
      end_timestamp: start + spec.duration / 2000, attributes: { ...common, "sentry.op": { type: "string", value: "http.client" } },
    },
  ];
  const header = { dsn, sdk: { name: "sentry.javascript.browser", version: "11.12.0" } };
  const itemHeader = { type: "span", item_count: items.length, content_type: "application/vnd.sentry.items.span.v2+json" };
  return { body: [JSON.stringify(header), JSON.stringify(itemHeader), JSON.stringify({ version: 2, items })].join("\n"), traceId };
}

/** Linear interpolation between the nearest ranks (what the API documents). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = sorted[Math.floor(rank)]!;
  return low + (sorted[Math.ceil(rank)]! - low) * (rank - Math.floor(rank));
}

/** Sentry's failure_rate(): statuses other than ok, cancelled and unknown fail. */
export const failureRate = (specs: SampleSpec[]) => specs.filter((spec) => !["ok", "cancelled", "unknown"].includes(spec.status)).length / specs.length;

/** Durations exact in binary floating point, so the stored seconds give them back exactly. */
export const SAMPLE_DURATIONS = [125, 250, 62.5, 500, 1000, 375, 187.5, 750, 93.75, 2000];
