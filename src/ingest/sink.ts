import { AppError } from "../errors";
import type { ItemRegistry } from "../items";
import type { ItemContext } from "../items/types";
import type { IngestRecord } from "../model";
import type { EnvelopeItem } from "./envelope";
import { processEnvelopeOrDefer, processStoreBody, type Processed } from "./pipeline";
import type { GroupCommitWriter } from "./writer";

/**
 * What the door hands on once a request is authenticated and framed: the items (or the legacy store
 * body) and their context. Everything after this point (JSON parsing, normalising, grouping, the
 * commit) happens on the main thread; on SQLite the commit itself runs on the commit thread
 * (docs/adr/0012-one-ingest-topology.md).
 */
export type IngestJob =
  | { kind: "envelope"; items: EnvelopeItem[]; context: ItemContext; limited?: RateLimitNotice }
  | { kind: "store"; body: Buffer; context: ItemContext; limited?: RateLimitNotice };

/** Items of the request were dropped by a quota (src/ingest/quotas.ts): what the answer must say. */
export interface RateLimitNotice {
  /** The `X-Sentry-Rate-Limits` value. */
  rateLimits: string;
  retryAfter: number;
  /** 429 (nothing chargeable was accepted) rather than 200 with the header. */
  refused: boolean;
}

export interface IngestSink {
  /**
   * Turns the job into records and commits them; resolves with the id the 200 answer names, only
   * once the records are durable. Rejects with an AppError for bad input (400/413) or back-pressure
   * (429/503).
   */
  ingest(job: IngestJob): Promise<string | null>;
  /** Commits outcome records of a refused request (rate-limited, filtered). */
  recordOutcomes(records: IngestRecord[]): Promise<void>;
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
  const submit = (processed: Processed) => ({ committed: writer.submit(processed.records), eventId: processed.eventId });
  /**
   * Events whose frames wait for source maps are submitted once resolved; the answer still waits
   * for their commit. Every other job is submitted synchronously, as before.
   */
  const process = (job: IngestJob): Processed | Promise<Processed> =>
    job.kind === "envelope"
      ? processEnvelopeOrDefer({ headers: job.context.envelopeHeaders, items: job.items }, registry, job.context)
      : processStoreBody(job.body, limits.maxEventBytes, job.context, registry);
  /** Holds no records itself (see `submit`): only the commit's promise and the event id. */
  const start = (job: IngestJob) => {
    const processed = process(job);
    return processed instanceof Promise ? processed.then(submit) : submit(processed);
  };
  return {
    async ingest(job) {
      if (closed) throw shuttingDown();
      const started = start(job);
      const { committed, eventId } = started instanceof Promise ? await started : started;
      await committed;
      return eventId;
    },
    async recordOutcomes(records) {
      if (closed) return;
      await writer.submit(records);
    },
    close() {
      closed = true;
      return writer.drain();
    },
  };
}
