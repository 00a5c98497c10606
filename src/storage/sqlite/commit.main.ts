import { ThreadClient } from "../../threads/thread-client";
import type { IngestRecord, IngestRecordResult, IngestStore } from "../types";
import { FALLBACK_CHECKPOINT_PAGES, SqliteCheckpointThread, type CheckpointThreadOptions } from "./checkpoint.main";
import type { CommitRequest, CommitResponse, CommitThreadData } from "./commit.protocol";
import { handOver, type HandOver } from "./commit-records";

/** After a thread stopped unexpectedly, commits fail at once for this long instead of starting threads in a tight loop. */
const DEFAULT_RESTART_DELAY_MS = 1_000;

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
 * Made outside commit(): a closure there would keep that call's records alive until the commit is
 * answered.
 */
function answering(resultsOf: HandOver["resultsOf"]) {
  return (handed: CommitResponse) => resultsOf(handed);
}

/**
 * The SQLite ingest store with its commits on a thread of their own (commit.thread.ts,
 * docs/adr/0004-sqlite-commit-thread.md). The records are turned into rows and serialised payloads
 * here, on the main thread that processed them (commit-records.ts); the thread reads span containers
 * and runs the statements, the WAL writes and the fsync, so the main thread keeps serving HTTP and
 * processing envelopes meanwhile. Each batch is handed over at once; the thread commits everything
 * that arrived while its last commit ran in one transaction, so a request waits for at most the
 * commit in progress and its own. A commit is answered only once it is durable, exactly as inline.
 */
export class SqliteCommitThread implements IngestStore {
  /**
   * The writer hands every batch over at once (the thread groups them); its WRITER_MAX_PENDING still
   * bounds the records waiting here. Past this many batches in flight the writer waits for one to
   * finish before it hands over the next, as it does inline.
   */
  readonly concurrentCommits = 1024;
  private readonly thread: ThreadClient<CommitRequest, CommitResponse>;
  private readonly checkpoints: SqliteCheckpointThread | null;

  constructor(file: string, options: CommitThreadOptions = {}) {
    this.checkpoints = options.checkpoints ? new SqliteCheckpointThread(file, options.checkpoints) : null;
    const workerData: CommitThreadData = {
      file, autocheckpointPages: this.checkpoints ? FALLBACK_CHECKPOINT_PAGES : null, issueEventsMergeMs: options.issueEventsMergeMs,
    };
    this.thread = new ThreadClient({
      entry: new URL("./commit.thread", import.meta.url),
      name: "the SQLite commit thread",
      workerData,
      // It holds one batch at a time, but parses span containers (short-lived garbage): with a 4 MB
      // young generation it spent ≈ 11 % of its time in GC and was the limit at capacity; 16 MB
      // measured 4–9 % more requests/s for ≈ 3 MB more peak RSS (docs/performance.md).
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
      restartDelayMs: options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS,
      onStopped: options.onStopped,
    });
  }

  commit(records: IngestRecord[]): Promise<IngestRecordResult[]> {
    if (this.thread.isClosing) return Promise.reject(new Error("the SQLite storage is closing"));
    // Started with the commit thread; a no-op once it runs or is closing.
    this.checkpoints?.start();
    const { records: handed, resultsOf } = handOver(records);
    return this.thread.request(handed).then(answering(resultsOf));
  }

  /**
   * Starts the threads now rather than with the first commit; does nothing once they run, while
   * closing, or within the restart delay after a thread stopped (as commit() refuses then).
   */
  start(): void {
    this.checkpoints?.start();
    this.thread.start();
  }

  /** Lets the thread finish what it was handed, close its connection and exit. */
  async close(): Promise<void> {
    await Promise.all([this.thread.close(), this.checkpoints?.close()]);
  }

  /** Stops the thread as a fault would: for tests of the failure path. */
  async crashForTesting(): Promise<void> {
    await this.thread.crashForTesting();
  }
}
