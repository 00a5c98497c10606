import type { ItemRegistry } from "../items";
import type { ItemContext } from "../items/types";
import type { IngestRecord } from "../storage/types";
import type { EnvelopeItem } from "./envelope";
import { processEnvelope, processStoreBody } from "./pipeline";
import type { GroupCommitWriter } from "./writer";

/**
 * What the door hands on once a request is authenticated and framed: the items (or the legacy store
 * body) and their context. Everything after this point (JSON parsing, normalising, grouping, the
 * commit) happens where the sink runs it: on this thread, or on the ingest worker thread.
 */
export type IngestJob =
  | { kind: "envelope"; items: EnvelopeItem[]; context: ItemContext }
  | { kind: "store"; body: Buffer; context: ItemContext };

export interface IngestSink {
  /**
   * Turns the job into records and commits them; resolves with the id the 200 answer names, only
   * once the records are durable. Rejects with an AppError for bad input (400/413) or back-pressure
   * (429/503).
   */
  ingest(job: IngestJob): Promise<string | null>;
  /** Commits records made elsewhere (server-side exceptions for self-monitoring). */
  submit(records: IngestRecord[]): Promise<void>;
  /** Commits everything accepted so far; afterwards the sink takes nothing more. */
  close(): Promise<void>;
}

/** Runs the pipeline on the calling thread, into a writer whose storage someone else owns. */
export function inProcessSink(registry: ItemRegistry, writer: GroupCommitWriter, limits: { maxEventBytes: number }): IngestSink {
  return {
    async ingest(job) {
      const processed =
        job.kind === "envelope"
          ? processEnvelope({ headers: job.context.envelopeHeaders, items: job.items }, registry, job.context)
          : processStoreBody(job.body, limits.maxEventBytes, job.context);
      await writer.submit(processed.records);
      return processed.eventId;
    },
    async submit(records) {
      await writer.submit(records);
    },
    close: () => writer.drain(),
  };
}
