import { ThreadClient } from "../../threads/thread-client";
import type { CheckpointRequest, CheckpointThreadData } from "./checkpoint.protocol";

/**
 * With the checkpoint thread, the other connections checkpoint by themselves only once the WAL
 * holds this many pages (16 MB with 4 KB pages; SQLite's default is 1,000): a bound for when that
 * thread falls behind or is gone, which at capacity it never reached.
 */
export const FALLBACK_CHECKPOINT_PAGES = 4_000;

export interface CheckpointThreadOptions {
  /** Pause between two checkpoints (SQLITE_CHECKPOINT_INTERVAL_MS). */
  intervalMs: number;
  /** A checkpoint failed, or the thread stopped; the commit connection's own checkpoints go on. */
  onProblem?(reason: string): void;
}

/**
 * Checkpoints the SQLite WAL on a thread of its own (checkpoint.thread.ts,
 * docs/adr/0006-sqlite-checkpoint-thread.md). At capacity the commit thread spent ≈ 2 of its
 * ≈ 9.5 ms per commit copying WAL frames into the database file and waiting for that file's fsync;
 * there that work runs beside the commits. The commit connection keeps a higher automatic checkpoint
 * as a bound, for when this thread falls behind or is gone. Not restarted when it stops: nothing
 * depends on it but speed.
 */
export class SqliteCheckpointThread {
  private readonly thread: ThreadClient<CheckpointRequest, never>;

  constructor(file: string, options: CheckpointThreadOptions) {
    const workerData: CheckpointThreadData = { file, intervalMs: options.intervalMs };
    this.thread = new ThreadClient({
      entry: new URL("./checkpoint.thread", import.meta.url),
      name: "the SQLite checkpoint thread",
      workerData,
      // It holds no data: one connection and a timer.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
      restartDelayMs: null,
      onStopped: (reason) => options.onProblem?.(reason),
      onNotice: (message) => options.onProblem?.(`a SQLite checkpoint failed: ${message}`),
    });
  }

  /** Starts the thread once; later calls do nothing. */
  start(): void {
    this.thread.start();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
