/**
 * Performance views (issue 36, ADR 0022): what the transactions list, a transaction's summary and
 * the web vitals read, aggregated from the samples written at commit time. Times Unix ms, durations ms.
 * Percentiles interpolate linearly between the nearest ranks (PostgreSQL's percentile_cont).
 */

/** The window and filters every performance read takes. */
export interface PerfQuery {
  projectIds: string[];
  /** [start, end) by the segment's end. */
  start: number;
  end: number;
  environment?: string;
  release?: string;
  /** One transaction (segment name). */
  name?: string;
}

export interface TransactionStats {
  projectId: string;
  name: string;
  /** The op of its most recent sample. */
  op: string;
  count: number;
  failures: number;
  p50: number;
  p75: number;
  p95: number;
  p99: number;
  /** Sum of the durations, for "time spent". */
  total: number;
  lastSeen: number;
}

/** One interval of a series: `slot` is its start. */
export interface PerfSeriesPoint {
  slot: number;
  count: number;
  failures: number;
  p50: number | null;
  p95: number | null;
}

export interface SegmentSampleRow {
  projectId: string;
  traceId: string;
  spanId: string;
  eventId: string | null;
  name: string;
  op: string;
  duration: number;
  failed: boolean;
  end: number;
  environment: string;
  release: string;
}

export type WebVitalName = "lcp" | "inp" | "cls" | "fcp" | "ttfb";

export interface VitalStats {
  page: string;
  vital: WebVitalName;
  count: number;
  p75: number;
  /** How many values fall in each band (web.dev thresholds: performance-service). */
  good: number;
  needsImprovement: number;
  poor: number;
}

export interface VitalSeriesPoint {
  slot: number;
  vital: WebVitalName;
  p75: number;
  count: number;
}

/** web.dev's thresholds: at or below `good` is good, above `poor` is poor, between needs improvement. */
export const VITAL_THRESHOLDS: Record<WebVitalName, { good: number; poor: number; unit: "ms" | "" }> = {
  lcp: { good: 2500, poor: 4000, unit: "ms" },
  inp: { good: 200, poor: 500, unit: "ms" },
  cls: { good: 0.1, poor: 0.25, unit: "" },
  fcp: { good: 1800, poor: 3000, unit: "ms" },
  ttfb: { good: 800, poor: 1800, unit: "ms" },
};
