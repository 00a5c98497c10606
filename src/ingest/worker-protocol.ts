/**
 * The messages between the main thread and the ingest worker (src/ingest/worker-sink.ts and
 * src/ingest/ingest-worker.ts). Payloads cross as the bytes the SDK sent, never as parsed objects:
 * copying a few KB is cheap, a structured clone of a normalised event is not
 * (docs/adr/0003-ingest-worker-thread.md).
 */
import { AppError, type AppErrorCode } from "../errors";
import type { ItemContext } from "../items/types";
import type { IngestRecord } from "../storage/types";
import type { ItemHeaders } from "./envelope";

export type WireJob =
  | { kind: "envelope"; items: { headers: ItemHeaders; payload: Uint8Array }[]; context: ItemContext }
  | { kind: "store"; body: Uint8Array; context: ItemContext };

export type ToWorker =
  | { type: "job"; id: number; job: WireJob }
  | { type: "records"; id: number; records: IngestRecord[] }
  | { type: "close" };

/** An AppError as it crosses the thread boundary, or any other failure as its message and stack. */
export type WireError =
  | { kind: "app"; code: AppErrorCode; message: string; causes: string[]; retryAfterSeconds: number | null }
  | { kind: "internal"; message: string; stack: string | undefined };

export type FromWorker =
  | { type: "ready" }
  | { type: "startup_failed"; error: WireError }
  | { type: "done"; id: number; eventId: string | null }
  | { type: "failed"; id: number; error: WireError }
  | { type: "closed" };

export function toWireError(error: unknown): WireError {
  // By shape, not instanceof: the same class may be loaded twice (tsx and bundles).
  if (error instanceof Error && error.name === "AppError") {
    const app = error as AppError;
    return { kind: "app", code: app.code, message: app.message, causes: app.causes, retryAfterSeconds: app.retryAfterSeconds };
  }
  return error instanceof Error
    ? { kind: "internal", message: error.message, stack: error.stack }
    : { kind: "internal", message: String(error), stack: undefined };
}

export function fromWireError(wire: WireError): Error {
  if (wire.kind === "app") return new AppError(wire.code, wire.message, wire.causes, wire.retryAfterSeconds);
  const error = new Error(wire.message);
  error.stack = wire.stack ?? error.stack;
  return error;
}
