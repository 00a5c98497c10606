/**
 * Logs (`log` envelope items, docs/protocol.md §8.8): one line each, with OpenTelemetry-style typed
 * attributes. Like the other telemetry they name their project by id only. Times are Unix ms (with
 * the sub-millisecond fraction); `timestampNs` keeps the nanoseconds exactly, as decimal text.
 */

/** Sentry's log levels, mildest first (OurLogLevel); `severityNumber` is OpenTelemetry's 1–24. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** An attribute as sent: `{ value, type }` with type string, boolean, integer, double (or array). */
export interface LogAttribute {
  value: string | number | boolean | null | unknown[];
  type: string;
}

export interface LogData {
  /** 32 hex digits; null when the SDK sent none. */
  traceId: string | null;
  /** 16 hex digits: the span active when the line was written (`span_id`, or `sentry.trace.parent_span_id`). */
  spanId: string | null;
  /** Unix ms. */
  timestamp: number;
  /** Nanoseconds since the epoch, as decimal digits (beyond a double's precision). */
  timestampNs: string;
  level: LogLevel;
  severityNumber: number;
  body: string;
  attributes: Record<string, LogAttribute>;
}

export interface StoredLog extends LogData {
  /** 32 hex digits, made at ingest (Sentry's `sentry.item_id`). */
  id: string;
  projectId: string;
  /** Unix ms. */
  received: number;
}

export interface LogListQuery {
  projectIds: string[];
  /** Window [start, end), Unix ms; either end may be open. */
  start?: number;
  end?: number;
  /** Only these levels; absent or empty: all. */
  levels?: LogLevel[];
  /** Substrings the body must each contain, case-insensitive (a search's words and quoted phrases). */
  text?: string[];
  /** `key:value` filters: the attribute's value as text equals the given one. */
  attributes?: [key: string, value: string][];
  traceId?: string;
  limit: number;
  /** Older than this (paging). */
  cursor?: string;
  /** Newer than this: the live tail asks for what arrived since the newest line it shows. */
  after?: string;
}
