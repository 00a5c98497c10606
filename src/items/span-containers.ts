/**
 * Reading span containers (SpanContainerRecord) is the span item's work (span.ts) — and log
 * containers (LogContainerRecord) the log item's (log.ts) — but it runs where
 * their spans are written: on the SQLite commit thread, off the main thread that is the limit at
 * capacity (docs/performance.md, docs/adr/0009-sqlite-span-groups.md); every other store reads them
 * at the start of its commit. Stores call readSpanContainers and nothing else of the item module
 * for it. Either way a container answers as one record.
 */
import type { IngestRecordResult, LogContainerRecord, ReadIngestRecord, SpanContainerRecord } from "../model";
import { readLogContainer } from "./log";
import { readSpanContainer } from "./span";

/** Span containers, and log containers (issue 38), which are read the same way. */
type Container = SpanContainerRecord | LogContainerRecord;

export interface ContainersRead<T> {
  records: T[];
  /** The results of `records` turned back into one per input record. */
  answer(results: IngestRecordResult[]): IngestRecordResult[];
}

const isContainer = (record: unknown): record is Container => {
  const kind = (record as { kind?: unknown }).kind;
  return kind === "span_container" || kind === "log_container";
};

const readContainer = (record: Container): ReadIngestRecord[] =>
  record.kind === "span_container" ? readSpanContainer(record) : readLogContainer(record);

/** Each of a container's read records as it is: for stores that write a container's spans one by one. */
export const asRead = (records: ReadIngestRecord[]): ReadIngestRecord[] => records;

/** `input` with each container replaced by its records, read and `convert`ed; other records as they are. */
export function readSpanContainers<T>(
  input: readonly (T | Container)[],
  convert: (records: ReadIngestRecord[]) => T[],
): ContainersRead<Exclude<T, Container>> {
  type Read = Exclude<T, Container>;
  if (!input.some(isContainer)) return { records: input as Read[], answer: (results) => results };
  const records: Read[] = [];
  /** Per input record: how many records it became, or null for one passed through. */
  const sizes: (number | null)[] = [];
  const kinds: ("span" | "logs")[] = [];
  for (const record of input) {
    if (isContainer(record)) {
      const read = convert(readContainer(record)) as Read[];
      records.push(...read);
      sizes.push(read.length);
      kinds.push(record.kind === "span_container" ? "span" : "logs");
    } else {
      records.push(record as Read);
      sizes.push(null);
    }
  }
  return {
    records,
    answer(results) {
      let offset = 0;
      let container = 0;
      return sizes.map((size) => {
        if (size === null) return results[offset++]!;
        offset += size;
        return { kind: kinds[container++]! };
      });
    },
  };
}
