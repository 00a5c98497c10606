/**
 * Ingest records in the form the SQLite commit writes them: payloads already serialised, span and
 * transaction rows already built, and of an event only the fields its issue counters need. Built on
 * the thread that processed the envelope, so the commit thread (commit.thread.ts) receives flat rows
 * and strings, which structured clone copies cheaply, instead of whole event trees.
 */
import { counterTagsOf } from "../../processing/normalize-tags";
import type { Level } from "../../processing/types";
import { eventTraceOf } from "../../processing/trace-context";
import { spanRowOf, transactionRowOf, type SpanRow, type TransactionRow } from "../rows";
import { outcomeCounterOf } from "../issue-deltas";
import { addPerfSamples, noSamples, type PerfSamples } from "../perf-samples";
import type { IngestRecord, IngestRecordResult, LogContainerRecord, ReadIngestRecord, SpanContainerRecord } from "../types";

export interface EventCommit {
  kind: "event";
  projectId: number;
  eventId: string;
  /** Unix ms of the event's timestamp. */
  seenAt: number;
  /** Unix ms. */
  received: number;
  level: Level;
  release: string | null;
  /** The tags its issue counts (counterTagsOf: the event's and its user's fields) as one string (encodeTags): structured clone copies one string far faster than a dozen pairs. */
  tags: string;
  userKey: string | null;
  /** The trace the event was captured in (contexts.trace), so a trace lists its errors. */
  traceId: string | null;
  /**
   * The stored form (src/processing/stored-event.ts) as text. The commit deflates it when large
   * (../stored-payload.ts): with the commit thread, that thread is the less busy of the two at capacity.
   */
  payload: string;
  grouping: {
    config: string;
    hash: string;
    strategy: string;
    title: string;
    culprit: string;
    eventType: string;
    /** Serialised IssueMetadata. */
    metadata: string;
  };
}

/** The spans of one container and trace, as one row of `span_groups` (span-groups.ts). */
export interface SpanGroupCommit {
  kind: "span_group";
  projectId: number;
  traceId: string;
  key: string;
  /** Unix ms: the earliest and latest end of the row's spans. */
  minEnd: number;
  maxEnd: number;
  /** The distinct ops and segment names, each between newlines ("\nhttp.client\ndb\n"). */
  ops: string;
  segmentNames: string;
  /** JSON arrays of the segments' and the other spans' SpanData, ordered by end; null for none. */
  segments: string | null;
  spans: string | null;
  /** The performance samples of the row's spans (ADR 0022), written when the row is new. */
  samples: PerfSamples;
}

export type CommitRecord =
  | EventCommit
  | { kind: "transaction"; row: TransactionRow; spans: SpanRow[]; samples: PerfSamples }
  | { kind: "span"; row: SpanRow; samples: PerfSamples }
  | SpanGroupCommit
  | Extract<IngestRecord, { kind: "session_update" | "session_aggregate" | "outcome" }>
  // Logs (issue 38): a container's lines, written as they are.
  | Extract<IngestRecord, { kind: "logs" | "attachment" }>;

/** What the commit thread is handed: commit records, and span containers it reads itself (src/items/span-containers.ts). */
export type HandedRecord = CommitRecord | SpanContainerRecord | LogContainerRecord;

export const toHandedRecord = (record: IngestRecord): HandedRecord =>
  record.kind === "span_container" || record.kind === "log_container" ? record : toCommitRecord(record);

/** A batch as the commit thread is handed it, and how its results map back to the records given. */
export interface HandOver {
  records: HandedRecord[];
  /**
   * The results of the records given, in their order, from the results of the records handed. It
   * keeps only which positions held outcomes, not the records: it lives until the commit is answered,
   * and records kept that long are promoted and marked again by the old generation (sink.ts).
   */
  resultsOf(handed: IngestRecordResult[]): IngestRecordResult[];
}

/**
 * Outcome records are summed per counter before the hand-off: nearly every request carries one
 * ("accepted"), and the commit sums them anyway (OutcomeSums), so a batch of 60 requests hands over
 * a few instead of 60 objects of seven keys to clone. The summed ones go last; their results are
 * dropped and every outcome record given gets its own.
 */
export function handOver(given: IngestRecord[]): HandOver {
  const records: HandedRecord[] = [];
  const outcomes = new Map<string, Extract<IngestRecord, { kind: "outcome" }>>();
  const isOutcome = new Uint8Array(given.length);
  for (let index = 0; index < given.length; index++) {
    const record = given[index]!;
    if (record.kind !== "outcome") {
      records.push(toHandedRecord(record));
      continue;
    }
    isOutcome[index] = 1;
    const counter = outcomeCounterOf(record);
    const sum = outcomes.get(counter);
    if (sum) sum.quantity += record.quantity;
    else outcomes.set(counter, { ...record });
  }
  for (const sum of outcomes.values()) records.push(sum);
  return { records, resultsOf: resultsInPlace(isOutcome) };
}

/**
 * A function of its own: a closure made in handOver would share that call's scope, and V8 would keep
 * the records with it (measured: V8's helper threads at 19–20 % of a core instead of 7–8).
 */
function resultsInPlace(isOutcome: Uint8Array): HandOver["resultsOf"] {
  return (handed) => {
    const results = new Array<IngestRecordResult>(isOutcome.length);
    let next = 0;
    for (let index = 0; index < isOutcome.length; index++) results[index] = isOutcome[index] ? { kind: "outcome" } : handed[next++]!;
    return results;
  };
}

export function toCommitRecord(record: ReadIngestRecord): CommitRecord {
  switch (record.kind) {
    case "event": {
      const { event, grouping } = record;
      return {
        kind: "event",
        projectId: Number(record.projectId),
        eventId: event.event_id,
        seenAt: Math.round(event.timestamp * 1000),
        received: Math.round(event.received * 1000),
        level: event.level,
        release: event.release ?? null,
        tags: encodeTags(counterTagsOf(event)),
        userKey: record.userKey,
        traceId: eventTraceOf(event.contexts)?.traceId ?? null,
        payload: record.payload,
        grouping: {
          config: grouping.config,
          hash: grouping.hash,
          strategy: grouping.strategy,
          title: grouping.title,
          culprit: grouping.culprit,
          eventType: grouping.eventType,
          metadata: JSON.stringify(grouping.metadata),
        },
      };
    }
    case "transaction": {
      const projectId = Number(record.projectId);
      return {
        kind: "transaction",
        row: transactionRowOf(projectId, record.transaction),
        spans: record.spans.map((span) => spanRowOf(projectId, span)),
        samples: addPerfSamples(noSamples(), projectId, record.spans),
      };
    }
    case "span": {
      const projectId = Number(record.projectId);
      return { kind: "span", row: spanRowOf(projectId, record.span), samples: addPerfSamples(noSamples(), projectId, [record.span]) };
    }
    default:
      return record;
  }
}

/** Between the parts of an encoded tag list. At the start of one, it marks the JSON form. */
const SEPARATOR = "\u0000";

/**
 * Keys and values joined by NUL. Tags that contain NUL themselves (the SDK's JSON can say \u0000)
 * go as JSON behind a leading NUL, which a joined list never starts with: a tag key is never empty.
 */
export function encodeTags(tags: readonly (readonly [string, string])[]): string {
  // One pass, no flattened copy: this runs for every event on the ingest thread.
  let joined = "";
  for (let i = 0; i < tags.length; i++) {
    const [key, value] = tags[i]!;
    if (key.includes(SEPARATOR) || value.includes(SEPARATOR)) return SEPARATOR + JSON.stringify(tags);
    joined += i === 0 ? `${key}${SEPARATOR}${value}` : `${SEPARATOR}${key}${SEPARATOR}${value}`;
  }
  return joined;
}

export function decodeTags(encoded: string): [string, string][] {
  if (encoded === "") return [];
  if (encoded.startsWith(SEPARATOR)) return JSON.parse(encoded.slice(1)) as [string, string][];
  const parts = encoded.split(SEPARATOR);
  const tags: [string, string][] = [];
  for (let i = 0; i < parts.length; i += 2) tags.push([parts[i]!, parts[i + 1]!]);
  return tags;
}
