import type { Worker } from "node:worker_threads";
import { closeWorker, startWorker, whenStopped } from "../../worker-file";
import type { CheckpointThreadData, FromCheckpointThread, ToCheckpointThread } from "./checkpoint-protocol";

/**
 * With the checkpoint thread, the other connections checkpoint by themselves only once the WAL
 * holds this many pages (16 MB with 4 KB pages; SQLite's default is 1,000): a bound for when that
 * thread falls behind or is gone, which at capacity it never reached.
 */
export const FALLBACK_CHECKPOINT_PAGES = 4_000;
/** At shutdown a checkpoint in progress is waited for this long, then the thread is stopped. */
const CLOSE_TIMEOUT_MS = 30_000;

export interface CheckpointThreadOptions {
  /** Pause between two checkpoints (SQLITE_CHECKPOINT_INTERVAL_MS). */
  intervalMs: number;
  /** A checkpoint failed, or the thread stopped; the commit connection's own checkpoints go on. */
  onProblem?(reason: string): void;
}

/**
 * Checkpoints the SQLite WAL on a thread of its own (docs/adr/0006-sqlite-checkpoint-thread.md).
 * At capacity the commit thread spent ≈ 2 of its ≈ 9.5 ms per commit copying WAL frames into the
 * database file and waiting for that file's fsync; here that work runs beside the commits. The
 * commit connection keeps a higher automatic checkpoint as a bound, for when this thread falls
 * behind or is gone. Not restarted when it stops: nothing depends on it but speed.
 */
export class SqliteCheckpointThread {
  private worker: Worker | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly options: CheckpointThreadOptions,
  ) {}

  /** Starts the thread once; later calls do nothing. */
  start(): void {
    if (this.worker || this.closing) return;
    const workerData: CheckpointThreadData = { file: this.file, intervalMs: this.options.intervalMs };
    // It holds no data: one connection and a timer.
    const worker = startWorker(new URL("./sqlite-checkpoint-worker", import.meta.url), {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
    });
    // Only sqlite-checkpoint-worker.ts posts here, so the messages are FromCheckpointThread by construction.
    worker.on("message", (message: FromCheckpointThread) => this.options.onProblem?.(`a SQLite checkpoint failed: ${message.message}`));
    whenStopped(worker, "the SQLite checkpoint thread", (reason) => {
      if (!this.closing) this.options.onProblem?.(reason);
    });
    this.worker = worker;
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    if (this.worker) await closeWorker(this.worker, { type: "close" } satisfies ToCheckpointThread, CLOSE_TIMEOUT_MS);
  }
}
