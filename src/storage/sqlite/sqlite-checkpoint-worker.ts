/**
 * The SQLite checkpoint thread (checkpoint-thread.ts): copies committed WAL frames into the database
 * file on a connection of its own, so the commit thread never stops to do it. PASSIVE never waits
 * for the writer or for readers; it copies what it can and the next round copies the rest.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { CheckpointThreadData, FromCheckpointThread, ToCheckpointThread } from "./checkpoint-protocol";
import { openConnection, openInThread } from "./db";

if (!parentPort) throw new Error("sqlite-checkpoint-worker.ts runs only as a worker thread (see checkpoint-thread.ts)");
const port = parentPort;
const { file, intervalMs } = workerData as CheckpointThreadData;
const db = openInThread(file, openConnection);
let lastReported = "";
let timer = setTimeout(checkpoint, intervalMs);

function checkpoint(): void {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    lastReported = "";
  } catch (error) {
    // Reported once per distinct failure, not every round: the commit connection's own checkpoints
    // keep the WAL bounded meanwhile (commit-thread.ts).
    const message = error instanceof Error ? error.message : String(error);
    if (message !== lastReported) port.postMessage({ type: "failed", message } satisfies FromCheckpointThread);
    lastReported = message;
  }
  timer = setTimeout(checkpoint, intervalMs);
}

// Only SqliteCheckpointThread posts here, so the messages are ToCheckpointThread by construction.
port.on("message", (message: ToCheckpointThread) => {
  if (message.type !== "close") return;
  clearTimeout(timer);
  db.close();
  port.close();
});
