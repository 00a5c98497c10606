/**
 * Span containers (SpanContainerRecord) are read where their spans are written: on the SQLite commit
 * thread, off the ingest thread that is the limit at capacity (docs/performance.md); every other
 * store reads them at the start of its commit. Either way a container answers as one record.
 */
import { readSpanContainer } from "../items/span";
import type { IngestRecord, IngestRecordResult, SpanContainerRecord } from "./types";

export interface ContainersRead<T> {
  records: T[];
  /** The results of `records` turned back into one per input record. */
  answer(results: IngestRecordResult[]): IngestRecordResult[];
}

const isContainer = (record: unknown): record is SpanContainerRecord =>
  (record as { kind?: unknown }).kind === "span_container";

export function readSpanContainers<T>(input: readonly (T | SpanContainerRecord)[], convert: (record: IngestRecord) => T): ContainersRead<T> {
  if (!input.some(isContainer)) return { records: input as T[], answer: (results) => results };
  const records: T[] = [];
  /** Per input record: how many records it became, or null for one passed through. */
  const sizes: (number | null)[] = [];
  for (const record of input) {
    if (isContainer(record)) {
      const read = readSpanContainer(record).map(convert);
      records.push(...read);
      sizes.push(read.length);
    } else {
      records.push(record);
      sizes.push(null);
    }
  }
  return {
    records,
    answer(results) {
      let offset = 0;
      return sizes.map((size) => {
        if (size === null) return results[offset++]!;
        offset += size;
        return { kind: "span" };
      });
    },
  };
}
