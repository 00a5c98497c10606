/**
 * The main thread's handle on the source-map thread (sourcemap-worker.ts). Started on first use, so
 * a server whose projects never upload maps runs no extra thread. A thread that stops fails its open
 * lookups (those frames stay unresolved and say so) and the next lookup starts a new one.
 */
import type { Worker } from "node:worker_threads";
import { closeWorker, startWorker, whenStopped } from "../worker-file";
import type { FromSourceMapThread, LookupAnswer, MapContent, MapLookup, SourceMapThreadData, ToSourceMapThread } from "./sourcemap-protocol";

const CLOSE_TIMEOUT_MS = 5_000;

/** Looks positions up in parsed maps; "missing" asks for the map's bytes (symbolicator.ts). */
export interface MapResolver {
  resolve(lookups: MapLookup[], contents: MapContent[]): Promise<LookupAnswer[]>;
  close(): Promise<void>;
}

interface Waiting {
  resolve(answers: LookupAnswer[]): void;
  reject(error: unknown): void;
}

export class SourceMapThread implements MapResolver {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly data: SourceMapThreadData, private readonly onStopped?: (reason: string) => void) {}

  resolve(lookups: MapLookup[], contents: MapContent[]): Promise<LookupAnswer[]> {
    if (this.closed) return Promise.reject(new Error("the source-map thread is closed"));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      // The bytes are copies made for this message (symbolicator.ts): transferred, not copied again.
      const transfer = contents.map((content) => content.bytes.buffer as ArrayBuffer);
      worker.postMessage({ type: "resolve", id, lookups, contents } satisfies ToSourceMapThread, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (worker) await closeWorker(worker, { type: "close" } satisfies ToSourceMapThread, CLOSE_TIMEOUT_MS);
  }

  private start(): Worker {
    const worker = startWorker(new URL("./sourcemap-worker", import.meta.url), { workerData: this.data });
    // Idle, the thread must not keep the process alive (tests and the CLI end without closing it);
    // it is referenced only while a lookup waits for its answer.
    worker.unref();
    worker.on("message", (message: FromSourceMapThread) => {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) worker.unref();
      waiting?.resolve(message.answers);
    });
    whenStopped(worker, "the source-map thread", (reason) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, waiting] of this.waiting) {
        this.waiting.delete(id);
        waiting.reject(new Error(reason));
      }
      if (!this.closed) this.onStopped?.(reason);
    });
    this.worker = worker;
    return worker;
  }
}
