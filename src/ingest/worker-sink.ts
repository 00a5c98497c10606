import type { Worker } from "node:worker_threads";
import type { Config } from "../config";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { shuttingDown, type IngestJob, type IngestSink } from "./sink";
import { closeWorker, startWorker } from "../worker-file";
import { fromWireError, toWire, type FromWorker, type ToWorker } from "./worker-protocol";

/**
 * Payload bytes handed to the worker and not yet answered, above which new jobs get 429: the
 * worker's own queue bound (WRITER_MAX_PENDING) counts records only once they are parsed, so bytes
 * waiting in the message port need a bound of their own or a burst would queue without limit.
 */
const DEFAULT_MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;
/** A worker that died is started again after this long (not in a tight loop if it dies at once). */
const DEFAULT_RESTART_DELAY_MS = 1_000;
/** At shutdown the worker commits what it accepted; one that cannot within this time is stopped. */
const CLOSE_TIMEOUT_MS = 30_000;

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
 * thread, so it can overlap with HTTP on the main thread (docs/adr/0003-ingest-worker-thread.md).
 * Answers still come only after the commit; a worker that dies fails its open jobs with 503 (the
 * SDKs retry, and event ids make the retry idempotent) and is started again.
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

  /** Whether a worker is running and taking jobs (false while it restarts after a fault). */
  get running(): boolean {
    return this.worker !== null;
  }

  ingest(job: IngestJob): Promise<string | null> {
    const worker = this.worker;
    if (this.closing) return Promise.reject(shuttingDown());
    if (!worker) return Promise.reject(new AppError("unavailable", "ingest is restarting, retry shortly", [], 1));
    const wire = toWire(job);
    const bytes = wire.bytes.byteLength;
    if (this.inFlightBytes > 0 && this.inFlightBytes + bytes > (this.options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES)) {
      return Promise.reject(new AppError("rate_limited", "ingest is over capacity: too much data is waiting to be stored, retry shortly", [], 1));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { bytes, resolve, reject });
      this.inFlightBytes += bytes;
      try {
        // Transferred, not copied: toWire allocated it for this message alone (never a SharedArrayBuffer).
        worker.postMessage({ type: "job", id, job: wire } satisfies ToWorker, [wire.bytes.buffer as ArrayBuffer]);
      } catch (error) {
        this.settle(id);
        reject(error);
      }
    });
  }

  close(): Promise<void> {
    this.closing ??= this.stopWorker();
    return this.closing;
  }

  /** Stops the worker thread as a fault would, without letting it finish: for tests of the restart path. */
  async crashForTesting(): Promise<void> {
    await this.worker?.terminate();
  }

  private settle(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    this.inFlightBytes -= waiting.bytes;
    return waiting;
  }

  private spawn(): Promise<void> {
    const worker = startWorker(new URL("./ingest-worker", import.meta.url), { workerData: this.options.config });
    return new Promise((resolve, reject) => {
      let started = false;
      let faultReported = false;
      const fault = (error: unknown) => {
        faultReported = true;
        this.options.onFault(error);
      };
      // Only ingest-worker.ts posts here, so the messages are FromWorker by construction.
      worker.on("message", (message: FromWorker) => {
        switch (message.type) {
          case "ready":
            started = true;
            resolve();
            // A restart that finishes after close() began must not leave a thread holding the database.
            if (this.closing) void worker.terminate();
            else this.worker = worker;
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
            if (message.error.kind === "app") {
              this.settle(message.id)?.reject(error);
              return;
            }
            // The same answer as a fault on the main thread gets (src/ingest/http.ts).
            this.options.onFault(error);
            this.settle(message.id)?.reject(new AppError("unavailable", "internal error while ingesting"));
            return;
          }
        }
      });
      worker.on("messageerror", (error) => fault(error));
      worker.on("error", (error) => {
        if (!started) reject(error);
        else fault(error);
      });
      worker.on("exit", (code) => {
        if (this.worker === worker) this.worker = null;
        this.failWaiting();
        if (!started) {
          reject(new Error(`the ingest worker exited (code ${code}) before it was ready`));
          return;
        }
        if (this.closing) return;
        if (!faultReported) fault(new Error(`the ingest worker stopped with exit code ${code}`));
        this.options.logger.error(`the ingest worker stopped (exit code ${code}); starting it again in ${this.restartDelayMs} ms`);
        this.scheduleRestart();
      });
    });
  }

  private get restartDelayMs(): number {
    return this.options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS;
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
    if (!this.worker) return;
    await closeWorker(this.worker, { type: "close" } satisfies ToWorker, CLOSE_TIMEOUT_MS, () =>
      this.options.logger.error(`the ingest worker did not finish its commits within ${CLOSE_TIMEOUT_MS} ms; stopping it`),
    );
  }
}
