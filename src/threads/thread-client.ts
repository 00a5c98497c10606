import type { ResourceLimits, Worker } from "node:worker_threads";
import type { FromThread, ToThread } from "./protocol";
import { closeWorker, startWorker, whenStopped } from "./worker-file";

/** At shutdown the thread finishes what it was handed; one that cannot within this time is stopped. */
const CLOSE_TIMEOUT_MS = 30_000;

interface Waiting<Response> {
  resolve(response: Response): void;
  reject(error: unknown): void;
}

export interface ThreadClientOptions {
  /** The thread's entry module without extension, relative to the caller (startWorker). */
  entry: URL;
  /** How messages name it: "<name> stopped (exit code N: what it threw)". */
  name: string;
  workerData: unknown;
  resourceLimits?: ResourceLimits;
  /**
   * After the thread stopped unexpectedly, requests fail at once for this long, then the next request
   * or start() starts a new thread; null: it is never started again (nothing depends on it but speed).
   */
  restartDelayMs: number | null;
  /** The thread stopped unexpectedly; its open requests have failed with `reason`. */
  onStopped?(reason: string): void;
  /** A problem the thread reported by itself (it keeps running). */
  onNotice?(message: string): void;
}

/**
 * The main thread's side of one worker thread (src/threads/protocol.ts): starts it on demand, answers
 * each request when the thread does, fails every open request when the thread stops, restarts it after
 * a delay rather than in a tight loop, and closes it. A process that never asks starts no thread.
 */
export class ThreadClient<Request, Response> {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting<Response>>();
  private nextId = 1;
  private closing: Promise<void> | null = null;
  private restartNotBefore = 0;
  private stopped = false;

  constructor(private readonly options: ThreadClientOptions) {}

  get isClosing(): boolean {
    return this.closing !== null;
  }

  /**
   * Starts the thread now rather than with the first request; does nothing while it runs, once
   * closing, within the restart delay after it stopped, or ever again for one that is not restarted.
   */
  start(): void {
    if (this.worker || this.closing || !this.mayStart()) return;
    this.worker = this.spawn();
  }

  /** Posts `body` (a structured clone) to the thread; resolves with the thread's answer to it. */
  request(body: Request): Promise<Response> {
    if (this.closing) return Promise.reject(new Error(`${this.options.name} is closing`));
    if (!this.worker && !this.mayStart()) return Promise.reject(new Error(`${this.options.name} stopped and restarts shortly`));
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      try {
        worker.postMessage({ type: "request", id, body } satisfies ToThread<Request>);
      } catch (error) {
        this.waiting.delete(id);
        reject(error);
      }
    });
  }

  /** Lets the thread finish what it was handed and exit; later requests are refused. */
  close(): Promise<void> {
    this.closing ??= this.worker ? closeWorker(this.worker, { type: "close" } satisfies ToThread<Request>, CLOSE_TIMEOUT_MS) : Promise.resolve();
    return this.closing;
  }

  /** Stops the thread as a fault would: for tests of the failure path. */
  async crashForTesting(): Promise<void> {
    await this.worker?.terminate();
  }

  private mayStart(): boolean {
    if (this.options.restartDelayMs === null) return !this.stopped;
    return Date.now() >= this.restartNotBefore;
  }

  private spawn(): Worker {
    const { entry, name, workerData, resourceLimits } = this.options;
    const worker = startWorker(entry, { workerData, resourceLimits });
    // Only the thread's entry posts here, and it posts FromThread<Response> by construction.
    worker.on("message", (message: FromThread<Response>) => {
      if (message.type === "notice") {
        this.options.onNotice?.(message.message);
        return;
      }
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.type === "done") waiting?.resolve(message.body);
      else waiting?.reject(new Error(message.message));
    });
    whenStopped(worker, name, (reason) => {
      if (this.worker === worker) this.worker = null;
      // Every message the thread posted has been delivered: whatever is still waiting was not done.
      for (const waiting of this.waiting.values()) waiting.reject(new Error(reason));
      this.waiting.clear();
      if (this.closing) return;
      this.stopped = true;
      this.restartNotBefore = Date.now() + (this.options.restartDelayMs ?? 0);
      this.options.onStopped?.(reason);
    });
    return worker;
  }
}
