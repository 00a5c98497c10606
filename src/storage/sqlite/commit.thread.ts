/**
 * The SQLite commit thread: owns a connection of its own and runs the ingest commits the main thread
 * posts (commit-thread.ts), so the statements, the WAL writes and the fsync never
 * block the main thread's event loop. Group commit happens here: whatever arrived while a commit ran
 * is committed next, together, in one transaction. workerData is a CommitThreadData.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { COMMIT_THREAD_NAME, type CommitThreadData, type FromCommitThread, type ToCommitThread } from "./commit-protocol";
import { refusesOneBatch } from "./commit-errors";
import { openDatabase, openInThread } from "./db";
import { sqliteCommitter } from "./ingest";
import { spanGroupsOf } from "./span-groups";
import { readSpanContainers } from "../span-containers";
import { nameThisThread } from "../../thread-name";

if (!parentPort) throw new Error("sqlite-commit-worker.ts runs only as a worker thread (see commit-thread.ts)");
const port = parentPort;
nameThisThread(COMMIT_THREAD_NAME);
const { file, autocheckpointPages, issueEventsMergeMs } = workerData as CommitThreadData;
const db = openInThread(file, openDatabase);
if (autocheckpointPages !== null) db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
const committer = sqliteCommitter(db, { mergeEveryMs: issueEventsMergeMs });
const post = (message: FromCommitThread) => port.postMessage(message);

type CommitMessage = Extract<ToCommitThread, { type: "commit" }>;

/**
 * One transaction for all of them; if the database refuses one batch's data, each batch again on its
 * own, so that batch fails alone instead of taking the requests grouped with it down too.
 */
function commitTogether(batches: CommitMessage[]): void {
  try {
    // Span containers are read here, off the main thread (span-containers.ts).
    const read = batches.map((batch) => readSpanContainers(batch.records, spanGroupsOf));
    const results = committer.commit(read.flatMap(({ records }) => records));
    let offset = 0;
    batches.forEach((batch, index) => {
      const { records, answer } = read[index]!;
      post({ type: "done", id: batch.id, results: answer(results.slice(offset, offset + records.length)) });
      offset += records.length;
    });
  } catch (error) {
    if (batches.length > 1 && refusesOneBatch(error)) {
      for (const batch of batches) commitTogether([batch]);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    for (const batch of batches) post({ type: "failed", id: batch.id, message });
  }
}

// Only SqliteCommitThread posts here, so the messages are ToCommitThread by construction.
port.on("message", (first: ToCommitThread) => {
  const waiting = [first];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) waiting.push(next.message as ToCommitThread);
  const batches = waiting.filter((message): message is CommitMessage => message.type === "commit");
  if (batches.length > 0) commitTogether(batches);
  // close() is posted after every commit it waits for, and nothing is posted after it.
  if (waiting.some((message) => message.type === "close")) {
    db.close();
    port.close();
  }
});
