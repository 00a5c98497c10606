/** What the ingest pipeline hands to the writer, and what a commit answers per record. */
import type { GroupingResult, IndexedEvent } from "../processing/types";
import type { LogContainerRecord, SpanContainerRecord, TelemetryRecord, TelemetryRecordResult } from "./telemetry";


/** What the ingest pipeline hands to the writer: one record per accepted item. */
export type IngestRecord =
  | {
      kind: "event";
      projectId: string;
      /** What groups, tags and counts the event (normalize.ts indexedEventOf). */
      event: IndexedEvent;
      /** What the events row stores (src/processing/stored-event.ts): the SDK's JSON with its context, or a normalised event. */
      payload: string;
      grouping: GroupingResult;
      /** Stable per-user key (id, email, username or IP) for "users affected"; null when unknown. */
      userKey: string | null;
    }
  | {
      kind: "outcome";
      projectId: string;
      outcome: OutcomeKind;
      /** Sentry data category (error, transaction, session, ...). */
      category: string;
      reason: string | null;
      quantity: number;
      /** Unix ms. */
      timestamp: number;
    }
  | TelemetryRecord;

/** An ingest record with nothing left to read: what the SQL of every engine writes. */
export type ReadIngestRecord = Exclude<IngestRecord, SpanContainerRecord | LogContainerRecord>;

export type OutcomeKind = "accepted" | "filtered" | "rate_limited" | "invalid" | "unsupported" | "client_discard";

export interface OutcomeTotal {
  outcome: OutcomeKind;
  category: string;
  reason: string | null;
  quantity: number;
}

/** Per-record result of a committed batch, in input order. */
export type IngestRecordResult =
  | { kind: "event"; issueId: string; duplicate: boolean }
  | { kind: "outcome" }
  | TelemetryRecordResult;
