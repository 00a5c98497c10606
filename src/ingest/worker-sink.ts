import type { Worker } from "node:worker_threads";
import type { Config } from "../config";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import type { IngestRecord } from "../storage/types";
import type { IngestJob, IngestSink } from "./sink";
import { startWorker } from "./worker-file";
import { fromWireError, type FromWorker, type ToWorker, type WireJob } from "./worker-protocol";

/**
 * Payload bytes handed to the worker and not yet answered, above which new jobs get 429: the
 * worker's own queue bound (WRITER_MAX_PENDING) counts records only once they are parsed, so bytes
 * waiting in the message port need a bound of their own or a burst would queue without limit.
 */
const DEFAULT_MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;
/** A worker that died is started again after this long (not in a tight loop if it dies at once). */
const DEFAULT_RESTART_DELAY_MS = 1_000;


interface Waiting {
  bytes: number;
  resolve(eventId: string | null): void;
  reject(error: unknown): void;
}

export interface WorkerSinkOptions {
  config: Config;
  logger: Logger;
  /** A worker fault (it died, or a job failed in a way that is not bad input) for self-monitoring. */
  onFault(error: unknown): void;
  /** Defaults to 64 MiB; a job is always taken when nothing else is waiting, however large. */
  maxInFlightBytes?: number;
  /** Defaults to 1 s. */
  restartDelayMs?: number;
}

/**
 * Runs the pipeline after the door (JSON parsing, normalising, grouping, the commit) on a worker
 * thread, so it overlaps with HTTP on the main thread: the two halves cost about the same per event,
 * and one thread doing both was the ceiling (docs/adr/0003-ingest-worker-thread.md). Answers still
 * come only after the commit; a worker that dies fails its open jobs with 503 (the SDKs retry, and
 * event ids make the retry idempotent) and is started again.
 */
export class WorkerSink implements IngestSink {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private inFlightBytes = 0;
  private closing: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;

  private constructor(private readonly options: WorkerSinkOptions) {}

  /** Resolves once the worker has opened its storage; rejects with its reason when it cannot. */
  static async start(options: WorkerSinkOptions): Promise<WorkerSink> {
    const sink = new WorkerSink(options);
    await sink.spawn();
    return sink;
  }

  ingest(job: IngestJob): Promise<string | null> {
    const wire = toWire(job);
    return this.send({ type: "job", id: 0, job: wire }, bytesOf(wire));
  }

  async submit(records: IngestRecord[]): Promise<void> {
    await this.send({ type: "records", id: 0, records }, 0);
  }

  close(): Promise<void> {
    this.closing ??= this.stopWorker();
    return this.closing;
  }

  private send(message: Extract<ToWorker, { id: number }>, bytes: number): Promise<string | null> {
    const worker = this.worker;
    if (this.closing) return Promise.reject(new AppError("unavailable", "the server is shutting down", [], 5));
    if (!worker) return Promise.reject(new AppError("unavailable", "ingest is restarting, retry shortly", [], 1));
    if (this.inFlightBytes > 0 && this.inFlightBytes + bytes > (this.options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES)) {
      return Promise.reject(new AppError("rate_limited", "ingest is over capacity: too much data is waiting to be stored, retry shortly", [], 1));
    }
    const id = this.nextId++;
    this.inFlightBytes += bytes;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { bytes, resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  private settle(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    this.inFlightBytes -= waiting.bytes;
    return waiting;
  }

  private spawn(): Promise<void> {
    const worker = startWorker("ingest-worker", { workerData: this.options.config });
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on("message", (message: FromWorker) => {
        switch (message.type) {
          case "ready":
            started = true;
            this.worker = worker;
            resolve();
            return;
          case "startup_failed":
            reject(fromWireError(message.error));
            void worker.terminate();
            return;
          case "done":
            this.settle(message.id)?.resolve(message.eventId);
            return;
          case "failed": {
            const error = fromWireError(message.error);
            if (message.error.kind === "internal") this.options.onFault(error);
            this.settle(message.id)?.reject(
              message.error.kind === "app" ? error : new AppError("unavailable", "internal error while ingesting", [], 1),
            );
            return;
          }
          case "closed":
            return;
        }
      });
      worker.on("error", (error) => {
        if (!started) reject(error);
        else this.options.onFault(error);
      });
      worker.on("exit", (code) => {
        if (this.worker === worker) this.worker = null;
        this.failWaiting();
        if (!started) {
          reject(new Error(`the ingest worker exited (code ${code}) before it was ready`));
          return;
        }
        if (this.closing) return;
        this.options.logger.error(`the ingest worker stopped (exit code ${code}); starting it again in ${this.restartDelayMs} ms`);
        this.scheduleRestart();
      });
    });
  }

  private get restartDelayMs(): number {
    return this.options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS;
  }

  /** Whether a worker is running and taking jobs (false while it restarts after a fault). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the worker thread as a fault would, without letting it finish: for tests of the restart path. */
  async crashForTesting(): Promise<void> {
    await this.worker?.terminate();
  }

  private scheduleRestart(): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.closing) return;
      this.spawn().catch((error: unknown) => {
        this.options.logger.error("the ingest worker could not start again; retrying", error);
        this.scheduleRestart();
      });
    }, this.restartDelayMs);
  }

  private failWaiting(): void {
    for (const id of [...this.waiting.keys()]) {
      this.settle(id)?.reject(new AppError("unavailable", "ingest stopped before the envelope was stored, retry shortly", [], 1));
    }
  }

  /** Lets the worker commit everything it accepted, close its storage and exit. */
  private async stopWorker(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    // Node delivers every message the worker sent before it emits "exit", so no answer is lost here.
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ type: "close" } satisfies ToWorker);
    await exited;
  }
}

function toWire(job: IngestJob): WireJob {
  return job.kind === "envelope"
    ? { kind: "envelope", items: job.items.map((item) => ({ headers: item.headers, payload: item.payload })), context: job.context }
    : job;
}

function bytesOf(job: WireJob): number {
  if (job.kind === "store") return job.body.byteLength;
  let bytes = 0;
  for (const item of job.items) bytes += item.payload.byteLength;
  return bytes;
}
