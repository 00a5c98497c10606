/**
 * The SQLite commit thread: owns a connection of its own and runs the ingest commits the main thread
 * posts (commit-thread.ts), one after another, so the statements, the WAL writes, the fsync and the
 * checkpoints never block the main thread's event loop. workerData is the database file.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "./db";
import { sqliteCommitter } from "./ingest";
import type { FromCommitThread, ToCommitThread } from "./commit-protocol";

if (!parentPort) throw new Error("sqlite-commit-worker.ts runs only as a worker thread (see commit-thread.ts)");
const port = parentPort;
const db = openDatabase(workerData as string);
const committer = sqliteCommitter(db);
const post = (message: FromCommitThread) => port.postMessage(message);

// Only SqliteCommitThread posts here, so the messages are ToCommitThread by construction.
port.on("message", (message: ToCommitThread) => {
  if (message.type === "close") {
    db.close();
    port.close();
    return;
  }
  try {
    post({ type: "done", id: message.id, results: committer.commit(message.records) });
  } catch (error) {
    post({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
});
