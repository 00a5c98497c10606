/** Log rows as both engines store them (migrations 0018 SQLite / 0013 PostgreSQL), and back. */
import type { LogAttribute, LogLevel, LogsRecord, StoredLog } from "../model";

export interface LogRow {
  project_id: number;
  timestamp: number;
  id: string;
  timestamp_ns: string;
  trace_id: string | null;
  span_id: string | null;
  level: string;
  severity_number: number;
  received: number;
  body: string;
  attributes: string;
}

export const LOG_COLUMNS = [
  "project_id", "timestamp", "id", "timestamp_ns", "trace_id", "span_id", "level", "severity_number", "received", "body", "attributes",
] as const satisfies readonly (keyof LogRow)[];

/** A record's lines as row values in LOG_COLUMNS order. */
export function logRowValues(record: LogsRecord): (string | number | null)[][] {
  const projectId = Number(record.projectId);
  return record.logs.map((log) => [
    projectId, log.timestamp, log.id, log.timestampNs, log.traceId, log.spanId, log.level, log.severityNumber, record.received, log.body,
    JSON.stringify(log.attributes),
  ]);
}

export function toLog(row: LogRow): StoredLog {
  return {
    id: row.id,
    projectId: String(row.project_id),
    timestamp: Number(row.timestamp),
    timestampNs: row.timestamp_ns,
    traceId: row.trace_id,
    spanId: row.span_id,
    level: row.level as LogLevel,
    severityNumber: Number(row.severity_number),
    received: Number(row.received),
    body: row.body,
    attributes: JSON.parse(row.attributes) as Record<string, LogAttribute>,
  };
}

/** Newest first by time, then by id: the order of every log list and of its cursor. */
export const newestLogFirst = (a: StoredLog, b: StoredLog): number =>
  b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * What the stored attributes text must contain for an attribute filter's value to match, as either
 * a JSON string or a bare JSON number or boolean: `"value":"42"` or `"value":42`. The rows are written
 * as JSON.stringify of `{value, type}` objects (logRowValues), so this is a necessary condition,
 * cheap to test on the text before the JSON is parsed; the exact test follows it.
 */
export function attributeValueNeedles(value: string): [quoted: string, bare: string] {
  return [`"value":${JSON.stringify(value)}`, `"value":${value}`];
}

/** `LIKE` pattern for a substring, with `\` as the escape character. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
