/**
 * The SQLite checkpoint thread (checkpoint.main.ts): copies committed WAL frames into the database
 * file on a connection of its own, so the commit thread never stops to do it. PASSIVE never waits
 * for the writer or for readers; it copies what it can and the next round copies the rest.
 */
import { constants, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { FromThread, ToThread } from "../../threads/protocol";
import { CHECKPOINT_THREAD_NAME, type CheckpointRequest, type CheckpointThreadData } from "./checkpoint.protocol";
import { nameThisThread } from "../../thread-name";
import { openConnection, openInThread } from "./db";

if (!parentPort) throw new Error("checkpoint.thread.ts runs only as a worker thread (see checkpoint.main.ts)");
const port = parentPort;
nameThisThread(CHECKPOINT_THREAD_NAME);
const { file, intervalMs } = workerData as CheckpointThreadData;
const db = openInThread(file, openConnection);
lowerPriority();
/**
 * While nothing is committed the pause doubles up to this: an idle server is not woken 500 times a
 * second, and a burst after a quiet spell waits at most this long for its first checkpoint.
 */
const IDLE_INTERVAL_MS = 250;
let lastReported = "";
let lastLog = -1;
let pause = intervalMs;
let timer = setTimeout(checkpoint, pause);

function checkpoint(): void {
  try {
    const [result] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    // The WAL's length changes with every commit (it grows, or restarts from the beginning).
    const committed = result?.log !== lastLog;
    lastLog = result?.log ?? -1;
    pause = committed ? intervalMs : Math.min(pause * 2, Math.max(intervalMs, IDLE_INTERVAL_MS));
    lastReported = "";
  } catch (error) {
    // Reported once per distinct failure, not every round: the other connections' own checkpoints
    // keep the WAL bounded meanwhile (checkpoint.main.ts).
    const message = error instanceof Error ? error.message : String(error);
    if (message !== lastReported) port.postMessage({ type: "notice", message } satisfies FromThread<never>);
    lastReported = message;
  }
  timer = setTimeout(checkpoint, pause);
}

/**
 * This thread at the lowest priority (nice 19; setpriority on Linux applies to the calling thread
 * alone): copying frames can wait, a commit cannot. At capacity it otherwise took the CPU from the
 * commit thread and the ingest thread (≈ 110 preemptions a second) while the machine stood ≈ 19 %
 * idle between commits, time it now runs in instead. Starved on a machine with no idle time, it
 * leaves the WAL to the commit connection's own checkpoints (FALLBACK_CHECKPOINT_PAGES), as when
 * it is gone. Where the system refuses, it stays as it was: only speed depends on it.
 */
function lowerPriority(): void {
  try {
    setPriority(constants.priority.PRIORITY_LOW);
  } catch {
    // Raising one's own niceness is allowed everywhere on Linux; elsewhere it is only speed.
  }
}

// Only SqliteCheckpointThread posts here, so the messages are ToThread<CheckpointRequest> by construction.
port.on("message", (message: ToThread<CheckpointRequest>) => {
  if (message.type !== "close") return;
  clearTimeout(timer);
  db.close();
  port.close();
});
