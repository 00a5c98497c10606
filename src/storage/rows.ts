/**
 * Issue and telemetry table rows ↔ storage types (app-data rows are mapped in app/), shared by every
 * engine: the tables have the same columns on SQLite
 * and PostgreSQL (migrations/). Booleans are written as 0/1 (SQLite has no boolean; PostgreSQL
 * reads 0/1 as boolean input) and read back from either 0/1 or true/false.
 */
import { storedEventOf } from "../processing/stored-event";
import { unpackPayload } from "./stored-payload";
import { parseStatusDetails } from "./issue-reopen";
import type { Level } from "../processing/types";
import type {
  Issue,
  IssueStatus,
  OutcomeHour,
  OutcomeKind,
  OutcomeTotal,
  SessionUpdate,
  SpanData,
  StoredEvent,
  StoredSpan,
  StoredTransaction,
  TransactionPayload,
} from "./types";

type Flag = number | boolean;
const flag = (value: Flag): boolean => value === true || value === 1;

export interface IssueRow {
  id: number;
  project_id: number;
  project_slug: string;
  seq: number;
  title: string;
  culprit: string;
  level: string;
  type: string;
  metadata: string;
  grouping_strategy: string;
  grouping_config: string;
  status: string;
  substatus: string;
  /** JSON (issue workflow, migrations sqlite/0015, postgres/0010). */
  status_details: string | null;
  first_seen: number;
  last_seen: number;
  times_seen: number;
  user_count: number;
  first_release: string | null;
  last_release: string | null;
}

export const toIssue = (row: IssueRow): Issue => ({
  id: String(row.id),
  projectId: String(row.project_id),
  shortId: `${row.project_slug.toUpperCase()}-${row.seq}`,
  title: row.title,
  culprit: row.culprit,
  level: row.level as Level,
  type: row.type === "error" ? "error" : "default",
  metadata: JSON.parse(row.metadata) as Issue["metadata"],
  groupingStrategy: row.grouping_strategy as Issue["groupingStrategy"],
  groupingConfig: row.grouping_config,
  status: row.status as IssueStatus,
  substatus: row.substatus as Issue["substatus"],
  statusDetails: parseStatusDetails(row.status_details),
  firstSeen: row.first_seen,
  lastSeen: row.last_seen,
  count: row.times_seen,
  userCount: row.user_count,
  firstRelease: row.first_release,
  lastRelease: row.last_release,
});

/** Issues with their project's slug (for the short id). */
export const SELECT_ISSUE = `SELECT i.*, p.slug AS project_slug FROM issues i JOIN projects p ON p.id = i.project_id`;

export interface EventRow {
  project_id: number;
  event_id: string;
  issue_id: number;
  grouping_hash: string;
  timestamp: number;
  received: number;
  /** Text, or on SQLite deflated when large (stored-payload.ts). */
  payload: string | Uint8Array;
}

export const toEvent = (row: EventRow): StoredEvent => ({
  eventId: row.event_id,
  projectId: String(row.project_id),
  issueId: String(row.issue_id),
  groupingHash: row.grouping_hash,
  timestamp: row.timestamp,
  received: row.received,
  payload: storedEventOf(unpackPayload(row.payload)),
});

export interface TransactionRow {
  project_id: number;
  event_id: string;
  trace_id: string;
  span_id: string;
  name: string;
  op: string | null;
  status: string | null;
  start_ts: number;
  end_ts: number;
  duration: number;
  release: string | null;
  environment: string;
  measurements: string;
  received: number;
  payload: string;
}

/** Column order of `transactions`. */
export const TRANSACTION_COLUMNS = [
  "project_id", "event_id", "trace_id", "span_id", "name", "op", "status", "start_ts", "end_ts", "duration", "release",
  "environment", "measurements", "received", "payload",
] as const satisfies readonly (keyof TransactionRow)[];

export function transactionRowOf(projectId: number, payload: TransactionPayload): TransactionRow {
  const trace = payload.contexts.trace ?? {};
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const start = payload.start_timestamp * 1000;
  const end = payload.timestamp * 1000;
  return {
    project_id: projectId, event_id: payload.event_id, trace_id: String(trace.trace_id), span_id: String(trace.span_id),
    name: payload.transaction, op: text(trace.op), status: text(trace.status), start_ts: start, end_ts: end,
    duration: end - start, release: payload.release ?? null, environment: payload.environment,
    measurements: JSON.stringify(payload.measurements), received: Math.round(payload.received * 1000),
    payload: JSON.stringify(payload),
  };
}

export const toTransaction = (row: TransactionRow): StoredTransaction => ({
  eventId: row.event_id,
  projectId: String(row.project_id),
  traceId: row.trace_id,
  spanId: row.span_id,
  name: row.name,
  op: row.op,
  status: row.status,
  start: row.start_ts,
  end: row.end_ts,
  received: row.received,
  release: row.release,
  environment: row.environment,
  payload: JSON.parse(row.payload) as TransactionPayload,
});

export interface SpanRow {
  project_id: number;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  segment_id: string | null;
  event_id: string | null;
  is_segment: Flag;
  op: string | null;
  name: string;
  status: string | null;
  start_ts: number;
  end_ts: number;
  duration: number;
  segment_name: string | null;
  release: string | null;
  environment: string | null;
  sdk_name: string | null;
  attributes: string;
  measurements: string;
}

/** Column order of `spans`. */
export const SPAN_COLUMNS = [
  "project_id", "trace_id", "span_id", "parent_span_id", "segment_id", "event_id", "is_segment", "op", "name", "status",
  "start_ts", "end_ts", "duration", "segment_name", "release", "environment", "sdk_name", "attributes", "measurements",
] as const satisfies readonly (keyof SpanRow)[];

export const spanRowOf = (projectId: number, span: SpanData): SpanRow => ({
  project_id: projectId, trace_id: span.traceId, span_id: span.spanId, parent_span_id: span.parentSpanId,
  segment_id: span.segmentId, event_id: span.eventId, is_segment: span.isSegment ? 1 : 0, op: span.op, name: span.name,
  status: span.status, start_ts: span.start, end_ts: span.end, duration: span.end - span.start,
  segment_name: span.segmentName, release: span.release, environment: span.environment, sdk_name: span.sdkName,
  attributes: JSON.stringify(span.attributes), measurements: JSON.stringify(span.measurements),
});

export const toSpan = (row: SpanRow): StoredSpan => ({
  projectId: String(row.project_id),
  traceId: row.trace_id,
  spanId: row.span_id,
  parentSpanId: row.parent_span_id,
  segmentId: row.segment_id,
  eventId: row.event_id,
  isSegment: flag(row.is_segment),
  op: row.op,
  name: row.name,
  status: row.status,
  start: row.start_ts,
  end: row.end_ts,
  segmentName: row.segment_name,
  release: row.release,
  environment: row.environment,
  sdkName: row.sdk_name,
  attributes: JSON.parse(row.attributes) as Record<string, unknown>,
  measurements: JSON.parse(row.measurements) as Record<string, number>,
});

export interface SessionStateRow {
  project_id: number;
  sid: string;
  did: string | null;
  seq: number;
  init: Flag;
  started: number;
  timestamp: number;
  status: string;
  errors: number;
  duration: number | null;
  release: string;
  /** "" when the SDK sent none (key columns must not be NULL to aggregate). */
  environment: string;
}

/** Column order of `session_states`. */
export const SESSION_STATE_COLUMNS = [
  "project_id", "sid", "did", "seq", "init", "started", "timestamp", "status", "errors", "duration", "release", "environment",
] as const satisfies readonly (keyof SessionStateRow)[];

export const toSessionUpdate = (row: SessionStateRow): SessionUpdate => ({
  sid: row.sid,
  did: row.did,
  seq: row.seq,
  init: flag(row.init),
  started: row.started,
  timestamp: row.timestamp,
  status: row.status,
  errors: row.errors,
  duration: row.duration,
  release: row.release,
  environment: row.environment === "" ? null : row.environment,
});

export function sessionStateRowOf(projectId: number, state: SessionUpdate): SessionStateRow {
  return {
    project_id: projectId, sid: state.sid, did: state.did, seq: state.seq, init: state.init ? 1 : 0,
    started: state.started, timestamp: state.timestamp, status: state.status, errors: state.errors,
    duration: state.duration, release: state.release, environment: state.environment ?? "",
  };
}

export interface OutcomeRow {
  project_id: number;
  hour: number;
  outcome: string;
  category: string;
  /** "" when there is none: part of the counter's key. */
  reason: string;
  quantity: number;
}

export const toOutcomeTotal = (row: Omit<OutcomeRow, "project_id" | "hour">): OutcomeTotal => ({
  outcome: row.outcome as OutcomeKind,
  category: row.category,
  reason: row.reason === "" ? null : row.reason,
  quantity: row.quantity,
});

export const toOutcomeHour = (row: OutcomeRow): OutcomeHour => ({ projectId: String(row.project_id), hour: row.hour, ...toOutcomeTotal(row) });

const HOUR_MS = 3_600_000;

export interface HourlyRow {
  issue_id: number;
  hour: number;
  count: number;
}

/** The first and last hour start of the 24-hour sparkline window ending at `now`. */
export function stats24hWindow(now: number): { firstHour: number; lastHour: number } {
  const lastHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  return { firstHour: lastHour - 23 * HOUR_MS, lastHour };
}

const DAY_MS = 24 * HOUR_MS;

/** The first and last UTC day start of the 14-day sparkline window ending with `now`'s day. */
export function stats14dWindow(now: number): { firstDay: number; lastDay: number } {
  const lastDay = Math.floor(now / DAY_MS) * DAY_MS;
  return { firstDay: lastDay - 13 * DAY_MS, lastDay };
}

/** Each listed issue's 14 daily buckets (oldest first) from the window's issue_hourly rows. */
export function stats14dBuckets(issueIds: number[], rows: HourlyRow[], firstDay: number): Map<number, number[]> {
  const buckets = new Map(issueIds.map((id) => [id, new Array<number>(14).fill(0)]));
  for (const { issue_id, hour, count } of rows) {
    const index = Math.floor((hour - firstDay) / DAY_MS);
    const issue = buckets.get(issue_id);
    if (issue && index >= 0 && index < 14) issue[index]! += count;
  }
  return buckets;
}

/** Each listed issue's 24 hourly buckets (oldest first) from the window's issue_hourly rows. */
export function stats24hBuckets(issueIds: number[], rows: HourlyRow[], firstHour: number): Map<number, number[]> {
  const buckets = new Map(issueIds.map((id) => [id, new Array<number>(24).fill(0)]));
  for (const { issue_id, hour, count } of rows) {
    const index = (hour - firstHour) / HOUR_MS;
    const issue = buckets.get(issue_id);
    if (issue && index >= 0 && index < 24) issue[index] = count;
  }
  return buckets;
}
