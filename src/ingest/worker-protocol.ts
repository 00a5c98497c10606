/**
 * The messages between the main thread and the ingest worker (src/ingest/worker-sink.ts and
 * src/ingest/ingest-worker.ts). Payloads cross as the bytes the SDK sent, copied once into a buffer
 * of their exact size and transferred, never as parsed objects: a structured clone of a normalised
 * event costs more than parsing it again (docs/adr/0003-ingest-worker-thread.md).
 */
import { AppError, type AppErrorCode } from "../errors";
import type { ItemContext } from "../items/types";
import type { EnvelopeItem, ItemHeaders } from "./envelope";
import type { IngestJob } from "./sink";

/** The ingest worker thread's name in /proc (src/thread-name.ts). */
export const INGEST_THREAD_NAME = "ingest";

/** An IngestJob whose payloads are ranges of one transferred buffer. */
export interface WireJob {
  kind: IngestJob["kind"];
  bytes: Uint8Array;
  /** Envelope items as [start, end) ranges of `bytes`; empty for a store body (all of `bytes`). */
  items: { headers: ItemHeaders; start: number; end: number }[];
  context: ItemContext;
}

export type ToWorker = { type: "job"; id: number; job: WireJob } | { type: "close" };

/** An AppError as it crosses the thread boundary, or any other failure as its name, message and stack. */
export type WireError =
  | { kind: "app"; code: AppErrorCode; message: string; causes: string[]; retryAfterSeconds: number | null }
  | { kind: "internal"; name: string; message: string; stack: string | undefined };

export type FromWorker =
  | { type: "ready" }
  | { type: "startup_failed"; error: WireError }
  | { type: "done"; id: number; eventId: string | null }
  | { type: "failed"; id: number; error: WireError };

export function toWire(job: IngestJob): WireJob {
  const parts = job.kind === "envelope" ? job.items.map((item) => item.payload) : [job.body];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  const items: WireJob["items"] = [];
  let offset = 0;
  parts.forEach((part, index) => {
    bytes.set(part, offset);
    if (job.kind === "envelope") items.push({ headers: job.items[index]!.headers, start: offset, end: offset + part.length });
    offset += part.length;
  });
  return { kind: job.kind, bytes, items, context: job.context };
}

export function fromWire(job: WireJob): IngestJob {
  const all = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  if (job.kind === "store") return { kind: "store", body: all, context: job.context };
  const items: EnvelopeItem[] = job.items.map((item) => ({ headers: item.headers, payload: all.subarray(item.start, item.end) }));
  return { kind: "envelope", items, context: job.context };
}

export function toWireError(error: unknown): WireError {
  if (error instanceof AppError) {
    return { kind: "app", code: error.code, message: error.message, causes: error.causes, retryAfterSeconds: error.retryAfterSeconds };
  }
  return error instanceof Error
    ? { kind: "internal", name: error.name, message: error.message, stack: error.stack }
    : { kind: "internal", name: "Error", message: String(error), stack: undefined };
}

/** The error again; an internal one keeps its name (server.ts prints a DatabaseStartupError without a stack). */
export function fromWireError(wire: WireError): Error {
  if (wire.kind === "app") return new AppError(wire.code, wire.message, wire.causes, wire.retryAfterSeconds);
  const error = new Error(wire.message);
  error.name = wire.name;
  error.stack = wire.stack ?? error.stack;
  return error;
}
