/**
 * A transaction in Sentry's event JSON (what `/projects/{org}/{project}/events/{id}/` answers for
 * one): `type: "transaction"`, the name as title and culprit, `startTimestamp` / `endTimestamp` in
 * Unix seconds, `measurements`, `contexts.trace`, and a `spans` entry before breadcrumbs and request.
 * Transactions belong to no issue: `groupID` is null and there are no neighbours.
 */
import type { Measurement, StoredTransaction, TransactionSpan } from "../../model";
import { isoDate } from "./common";
import { eventBody, type EventJson } from "./event";
import { eventEntries, type EntryJson } from "./event-entries";

export interface SpanJson {
  span_id: string;
  parent_span_id: string | null;
  trace_id: string;
  op: string | null;
  description: string | null;
  status: string | null;
  origin: string | null;
  start_timestamp: number;
  timestamp: number;
  exclusive_time: number | null;
  tags: Record<string, string> | null;
  data: Record<string, unknown> | null;
}

export type TransactionJson = Omit<EventJson, "type" | "groupID" | "metadata" | "entries" | "location"> & {
  type: "transaction";
  groupID: null;
  location: string;
  metadata: Record<string, never>;
  entries: ({ type: "spans"; data: SpanJson[] } | EntryJson)[];
  startTimestamp: number;
  endTimestamp: number;
  measurements: Record<string, Measurement>;
};

const spanJson = (span: TransactionSpan): SpanJson => ({
  span_id: span.span_id,
  parent_span_id: span.parent_span_id ?? null,
  trace_id: span.trace_id,
  op: span.op ?? null,
  description: span.description ?? null,
  status: span.status ?? null,
  origin: span.origin ?? null,
  start_timestamp: span.start_timestamp,
  timestamp: span.timestamp,
  exclusive_time: span.exclusive_time ?? null,
  tags: span.tags ?? null,
  data: span.data ?? null,
});

export function serializeTransaction(stored: StoredTransaction): TransactionJson {
  const event = stored.payload;
  return {
    id: stored.eventId,
    groupID: null,
    eventID: stored.eventId,
    projectID: stored.projectId,
    type: "transaction",
    title: event.transaction,
    message: "",
    culprit: event.transaction,
    location: event.transaction,
    metadata: {},
    platform: event.platform,
    dateCreated: isoDate(stored.end),
    dateReceived: isoDate(stored.received),
    ...eventBody(event),
    entries: [{ type: "spans", data: event.spans.map(spanJson) }, ...eventEntries(event)],
    fingerprints: [],
    crashFile: null,
    userReport: null,
    sdkUpdates: [],
    previousEventID: null,
    nextEventID: null,
    startTimestamp: event.start_timestamp,
    endTimestamp: event.timestamp,
    measurements: event.measurements,
  };
}
