/**
 * What the performance views read (ADR 0022): one narrow sample per segment and one per web-vital
 * value, made from the spans a commit stores. Both engines write them beside the spans.
 */
import type { SpanData } from "../model";

/** The web vitals the vitals view shows; other measurements are not sampled. */
export const WEB_VITALS = ["lcp", "inp", "cls", "fcp", "ttfb"] as const;
export type WebVital = (typeof WEB_VITALS)[number];

/** Statuses that are not failures, as Sentry's failure_rate() counts them; anything else is. */
const NOT_FAILED = new Set(["ok", "cancelled", "unknown"]);
export const isFailedStatus = (status: string | null): boolean => status !== null && !NOT_FAILED.has(status);

/** A segment sample in column order: project_id, end_ts, trace_id, span_id, name, op, duration, failed, environment, release, event_id. */
export type SegmentSample = [number, number, string, string, string, string, number, boolean, string, string, string | null];
/** A vital sample in column order: project_id, vital, end_ts, trace_id, span_id, page, value, environment, release. */
export type VitalSample = [number, string, number, string, string, string, number, string, string];

export const SEGMENT_SAMPLE_COLUMNS = ["project_id", "end_ts", "trace_id", "span_id", "name", "op", "duration", "failed", "environment", "release", "event_id"] as const;
export const VITAL_SAMPLE_COLUMNS = ["project_id", "vital", "end_ts", "trace_id", "span_id", "page", "value", "environment", "release"] as const;

export interface PerfSamples {
  segments: SegmentSample[];
  vitals: VitalSample[];
}

export const noSamples = (): PerfSamples => ({ segments: [], vitals: [] });

/** Adds the samples of `spans` (of one project) to `into`. */
export function addPerfSamples(into: PerfSamples, projectId: number, spans: readonly SpanData[]): PerfSamples {
  for (const span of spans) {
    if (span.isSegment) {
      into.segments.push([
        projectId, span.end, span.traceId, span.spanId, span.segmentName ?? span.name, span.op ?? "default", span.end - span.start,
        isFailedStatus(span.status), span.environment ?? "", span.release ?? "", span.eventId,
      ]);
    }
    // Most spans carry no measurement: a for-in finds nothing without allocating.
    for (const name in span.measurements) {
      if (!(WEB_VITALS as readonly string[]).includes(name)) continue;
      const value = span.measurements[name]!;
      if (!Number.isFinite(value) || value < 0) continue;
      into.vitals.push([
        projectId, name, span.end, span.traceId, span.spanId, span.segmentName ?? span.name, value, span.environment ?? "", span.release ?? "",
      ]);
    }
  }
  return into;
}
