import type { Worker } from "node:worker_threads";
import { closeWorker, startWorker, whenStopped } from "../../worker-file";
import type { IngestRecord, IngestRecordResult, IngestStore } from "../types";
import { FALLBACK_CHECKPOINT_PAGES, SqliteCheckpointThread, type CheckpointThreadOptions } from "./checkpoint-thread";
import type { CommitThreadData, FromCommitThread, ToCommitThread } from "./commit-protocol";
import { handOver, type HandOver } from "./commit-records";

/** At shutdown the thread finishes the commits it was handed; one that cannot within this time is stopped. */
const CLOSE_TIMEOUT_MS = 30_000;
/** After a thread stopped unexpectedly, commits fail at once for this long instead of starting threads in a tight loop. */
const DEFAULT_RESTART_DELAY_MS = 1_000;

interface Waiting {
  resolve(results: IngestRecordResult[]): void;
  reject(error: unknown): void;
}

export interface CommitThreadOptions {
  /** The thread stopped unexpectedly (its open commits failed; a commit after the restart delay starts a new one). */
  onStopped?(reason: string): void;
  /** Defaults to 1 s. */
  restartDelayMs?: number;
  /** WAL checkpoints on a thread of their own, started with the commit thread; without: the commit connection checkpoints every 1,000 pages. */
  checkpoints?: CheckpointThreadOptions;
  /** IssueEventsOptions.mergeEveryMs, for tests. */
  issueEventsMergeMs?: number;
}

/**
 * Made outside commit(): a closure there would keep that call's records (the message) alive until the
 * commit is answered.
 */
function answering(resolve: (results: IngestRecordResult[]) => void, resultsOf: HandOver["resultsOf"]) {
  return (handed: IngestRecordResult[]) => resolve(resultsOf(handed));
}

/**
 * The SQLite ingest store with its commits on a thread of their own (docs/adr/0004-sqlite-commit-thread.md).
 * The records are turned into rows and serialised payloads here, on the thread that processed them
 * (commit-records.ts); the thread only runs the statements, the WAL writes and the fsync, so the
 * main thread keeps serving HTTP and processing envelopes meanwhile. Each batch is handed over at
 * once; the thread commits everything that arrived while its last commit ran in one transaction, so
 * a request waits for at most the commit in progress and its own. A commit is answered only once it
 * is durable, exactly as on the main thread.
 */
export class SqliteCommitThread implements IngestStore {
  /**
   * The writer hands every batch over at once (the thread groups them); its WRITER_MAX_PENDING still
   * bounds the records waiting here. Past this many batches in flight the writer waits for one to
   * finish before it hands over the next, as it does on the main thread.
   */
  readonly concurrentCommits = 1024;
  /** Started by start() or the first commit: a process that never ingests (the CLI) starts no thread. */
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closing: Promise<void> | null = null;
  private restartNotBefore = 0;
  private readonly checkpoints: SqliteCheckpointThread | null;

  constructor(
    private readonly file: string,
    private readonly options: CommitThreadOptions = {},
  ) {
    this.checkpoints = options.checkpoints ? new SqliteCheckpointThread(file, options.checkpoints) : null;
  }

  commit(records: IngestRecord[]): Promise<IngestRecordResult[]> {
    if (this.closing) return Promise.reject(new Error("the SQLite storage is closing"));
    if (!this.worker && Date.now() < this.restartNotBefore) {
      return Promise.reject(new Error("the SQLite commit thread stopped and restarts shortly"));
    }
    const { records: handed, resultsOf } = handOver(records);
    const message: ToCommitThread = { type: "commit", id: this.nextId++, records: handed };
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve, reject) => {
      this.waiting.set(message.id, { resolve: answering(resolve, resultsOf), reject });
      try {
        worker.postMessage(message);
      } catch (error) {
        this.waiting.delete(message.id);
        reject(error);
      }
    });
  }

  /**
   * Starts the threads now rather than with the first commit; does nothing once they run, while
   * closing, or within the restart delay after a thread stopped (as commit() refuses then).
   */
  start(): void {
    if (this.closing || Date.now() < this.restartNotBefore) return;
    this.worker ??= this.spawn();
  }

  /** Lets the thread finish what it was handed, close its connection and exit. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private spawn(): Worker {
    this.checkpoints?.start();
    const workerData: CommitThreadData = {
      file: this.file, autocheckpointPages: this.checkpoints ? FALLBACK_CHECKPOINT_PAGES : null, issueEventsMergeMs: this.options.issueEventsMergeMs,
    };
    const worker = startWorker(new URL("./sqlite-commit-worker", import.meta.url), {
      workerData,
      // It holds one batch at a time, but parses span containers (short-lived garbage): with a 4 MB
      // young generation it spent ≈ 11 % of its time in GC and was the limit at capacity; 16 MB
      // measured 4–9 % more requests/s for ≈ 3 MB more peak RSS (docs/performance.md).
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    // Only sqlite-commit-worker.ts posts here, so the messages are FromCommitThread by construction.
    worker.on("message", (message: FromCommitThread) => {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.type === "done") waiting?.resolve(message.results);
      else waiting?.reject(new Error(message.message));
    });
    whenStopped(worker, "the SQLite commit thread", (reason) => {
      if (this.worker === worker) this.worker = null;
      // Every message the thread posted has been delivered: whatever is still waiting was not committed.
      for (const waiting of this.waiting.values()) waiting.reject(new Error(reason));
      this.waiting.clear();
      if (this.closing) return;
      this.restartNotBefore = Date.now() + (this.options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS);
      this.options.onStopped?.(reason);
    });
    return worker;
  }

  private async stop(): Promise<void> {
    await Promise.all([this.stopCommits(), this.checkpoints?.close()]);
  }

  private async stopCommits(): Promise<void> {
    if (this.worker) await closeWorker(this.worker, { type: "close" } satisfies ToCommitThread, CLOSE_TIMEOUT_MS);
  }

  /** Stops the thread as a fault would: for tests of the failure path. */
  async crashForTesting(): Promise<void> {
    await this.worker?.terminate();
  }
}
