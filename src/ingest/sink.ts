import { AppError } from "../errors";
import type { ItemRegistry } from "../items";
import type { ItemContext } from "../items/types";
import type { EnvelopeItem } from "./envelope";
import { processEnvelope, processStoreBody } from "./pipeline";
import type { GroupCommitWriter } from "./writer";

/**
 * What the door hands on once a request is authenticated and framed: the items (or the legacy store
 * body) and their context. Everything after this point (JSON parsing, normalising, grouping, the
 * commit) happens on the main thread; on SQLite the commit itself runs on the commit thread
 * (docs/adr/0012-one-ingest-topology.md).
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
  /** Commits everything accepted so far; afterwards the sink refuses jobs with 503. */
  close(): Promise<void>;
}

export const shuttingDown = () => new AppError("unavailable", "the server is shutting down", [], 5);

/** Runs the pipeline on the calling thread, into a writer whose storage someone else owns. */
export function inProcessSink(registry: ItemRegistry, writer: GroupCommitWriter, limits: { maxEventBytes: number }): IngestSink {
  let closed = false;
  /**
   * Not inlined into ingest(): the records must not stay referenced from the awaiting frame. Where
   * the commit runs on another thread they would outlive many young-generation collections and be
   * promoted, and the main heap grew by ≈ 80 MB under load (docs/adr/0004-sqlite-commit-thread.md).
   */
  const submit = (job: IngestJob) => {
    const processed =
      job.kind === "envelope"
        ? processEnvelope({ headers: job.context.envelopeHeaders, items: job.items }, registry, job.context)
        : processStoreBody(job.body, limits.maxEventBytes, job.context);
    return { committed: writer.submit(processed.records), eventId: processed.eventId };
  };
  return {
    async ingest(job) {
      if (closed) throw shuttingDown();
      const { committed, eventId } = submit(job);
      await committed;
      return eventId;
    },
    close() {
      closed = true;
      return writer.drain();
    },
  };
}
