/**
 * Telemetry beyond error events: sessions (release health), transactions and spans (performance).
 * Like events, these rows name their project by id only and are never joined to app data.
 * Times are Unix milliseconds; span and transaction times keep their sub-millisecond fraction.
 * Payload reference: docs/protocol.md §8.2–§8.4.
 */
import type { NormalizedEvent } from "../processing/types";
import type { OutcomeKind } from "./ingest";
import type { EffectivePrivacy } from "./privacy";

/**
 * Sentry's `session.status` groups, mildest first: a session (or a user, over all their sessions)
 * counts in the most severe one it reached. `healthy` and `errored` are derived: errored means errors
 * or a non-ok end without being unhandled, abnormal or crashed.
 */
export const SESSION_HEALTH = ["healthy", "errored", "unhandled", "abnormal", "crashed"] as const;
export type SessionHealth = (typeof SESSION_HEALTH)[number];

/** One `session` item: the full current state of a session (§8.4). */
export interface SessionUpdate {
  /** 32 lower-case hex digits. */
  sid: string;
  /** Distinct (user) id; basis of `count_unique(user)`. */
  did: string | null;
  /** Logical clock; the update with the highest `seq` is the session's state. */
  seq: number;
  /** True on the first update; only sessions whose first update arrived count towards totals. */
  init: boolean;
  started: number;
  timestamp: number;
  /** As sent (`ok`, `exited`, `crashed`, `abnormal`, `errored`, `unhandled`, or an unknown string). */
  status: string;
  errors: number;
  /** Seconds. */
  duration: number | null;
  release: string;
  environment: string | null;
}

/** One bucket of a `sessions` item (pre-aggregated request-mode sessions). */
export interface SessionAggregate {
  /** Start of the minute the sessions started in. */
  started: number;
  did: string | null;
  exited: number;
  errored: number;
  abnormal: number;
  unhandled: number;
  crashed: number;
  release: string;
  environment: string | null;
}

/** A v1 span as it sits in a transaction's `spans` list (normalised). */
export interface TransactionSpan {
  span_id: string;
  parent_span_id?: string;
  trace_id: string;
  op?: string;
  description?: string;
  status?: string;
  origin?: string;
  /** Unix seconds (float), clock-drift corrected like the transaction. */
  start_timestamp: number;
  timestamp: number;
  exclusive_time?: number;
  tags?: Record<string, string>;
  data?: Record<string, unknown>;
}

export interface Measurement {
  value: number;
  unit: string;
}

/** A `transaction` event after validation and normalisation: the error-event shape plus timing. */
export interface TransactionPayload extends NormalizedEvent {
  type: "transaction";
  /** The transaction's name (`transaction` in the protocol), always present. */
  transaction: string;
  transaction_info?: { source?: string };
  /** Unix seconds (float); `timestamp` is the end. */
  start_timestamp: number;
  spans: TransactionSpan[];
  measurements: Record<string, Measurement>;
}

/** One span row: from a transaction (its root, the segment, and its children), a v1 span item, or a v2 container. */
export interface SpanData {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits. */
  spanId: string;
  parentSpanId: string | null;
  /** The span id of the segment (transaction root) the span belongs to, when known. */
  segmentId: string | null;
  /** The transaction event the span came in, when it came in one. */
  eventId: string | null;
  isSegment: boolean;
  op: string | null;
  /** v2 `name`, v1 `description` (the transaction name for a transaction's root). */
  name: string;
  status: string | null;
  start: number;
  end: number;
  /** Name of the segment (transaction) the span belongs to. */
  segmentName: string | null;
  release: string | null;
  environment: string | null;
  sdkName: string | null;
  /** v1 `data` or v2 attribute values (typed attributes reduced to their `value`). */
  attributes: Record<string, unknown>;
  /** Web vitals and other measurements in their units (`lcp` → 1234.5). */
  measurements: Record<string, number>;
}

export interface StoredSpan extends SpanData {
  projectId: string;
}

export interface StoredTransaction {
  eventId: string;
  projectId: string;
  traceId: string;
  spanId: string;
  name: string;
  op: string | null;
  status: string | null;
  start: number;
  /** The transaction's `timestamp`. */
  end: number;
  received: number;
  release: string | null;
  environment: string;
  payload: TransactionPayload;
}

export type TelemetryRecord =
  | { kind: "session_update"; projectId: string; update: SessionUpdate }
  | { kind: "session_aggregate"; projectId: string; aggregate: SessionAggregate }
  /** `spans` holds the transaction's root (the segment) and its child spans as span rows. */
  | { kind: "transaction"; projectId: string; transaction: TransactionPayload; spans: SpanData[] }
  | { kind: "span"; projectId: string; span: SpanData }
  | SpanContainerRecord;

/**
 * A v2 span container not read yet: where the store reads it (the SQLite commit thread) its JSON
 * is parsed and its spans built off the main thread; other stores read it at the start of their
 * commit. The reading is the span item's code (src/items/span-containers.ts); storage only calls
 * it. It becomes span records and their outcomes.
 */
export interface SpanContainerRecord {
  kind: "span_container";
  projectId: string;
  /** The item's payload as text. */
  json: string;
  /** The item header's `item_count`, unchecked. */
  itemCount: unknown;
  /** Unix ms. */
  receivedAt: number;
  /** Seconds to add to the client's timestamps (clock drift). */
  shift: number;
  sdkName: string | null;
  /** The project's data scrubbing settings, applied where the container is read; null: none; absent: the defaults. */
  privacy?: EffectivePrivacy | null;
}

export type TelemetryRecordResult =
  | { kind: "session_update" }
  | { kind: "session_aggregate" }
  | { kind: "transaction"; duplicate: boolean }
  /** Also the answer for a whole span container. */
  | { kind: "span" };

export type SessionGroupKey = "project" | "release" | "environment";

export interface SessionStatsQuery {
  projectIds: string[];
  /** Window [start, end), whole hours; `interval` is a multiple of an hour that divides it. */
  start: number;
  end: number;
  interval: number;
  groupBy: SessionGroupKey[];
  releases?: string[];
  environments?: string[];
}

/** Sessions and distinct users of one group and health, in one interval (`slot`) or the whole window (`slot` null). */
export interface SessionStatsRow {
  project?: string;
  release?: string;
  /** null: sessions sent without an environment. */
  environment?: string | null;
  slot: number | null;
  health: SessionHealth;
  sessions: number;
  users: number;
}

/** Duration quantiles (seconds) of the exited single sessions of one project and release. */
export interface SessionDurationRow {
  project: string;
  release: string;
  sessions: number;
  p50: number;
  p90: number;
}

export interface SpanListQuery {
  projectIds: string[];
  limit: number;
  cursor?: string;
  isSegment?: boolean;
  op?: string;
  traceId?: string;
  segmentName?: string;
}


export interface OutcomeSeriesQuery {
  projectIds: string[];
  /** Window [start, end), whole hours. */
  start: number;
  end: number;
}

/** An outcome counter of one project and hour. */
export interface OutcomeHour {
  projectId: string;
  hour: number;
  outcome: OutcomeKind;
  category: string;
  reason: string | null;
  quantity: number;
}
