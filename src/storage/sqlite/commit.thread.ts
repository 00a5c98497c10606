/**
 * The SQLite commit thread: owns a connection of its own and runs the ingest commits the main thread
 * posts (commit.main.ts), so the statements, the WAL writes and the fsync never
 * block the main thread's event loop. Group commit happens here: whatever arrived while a commit ran
 * is committed next, together, in one transaction. workerData is a CommitThreadData.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import type { FromThread, ToThread } from "../../threads/protocol";
import { COMMIT_THREAD_NAME, type CommitRequest, type CommitResponse, type CommitThreadData } from "./commit.protocol";
import { refusesOneBatch } from "./commit-errors";
import { openDatabase, openInThread } from "./db";
import { sqliteCommitter } from "./ingest";
import { spanGroupsOf } from "./span-groups";
import { readSpanContainers } from "../../items/span-containers";
import { nameThisThread } from "../../thread-name";

if (!parentPort) throw new Error("commit.thread.ts runs only as a worker thread (see commit.main.ts)");
const port = parentPort;
nameThisThread(COMMIT_THREAD_NAME);
const { file, autocheckpointPages, issueEventsMergeMs } = workerData as CommitThreadData;
const db = openInThread(file, openDatabase);
if (autocheckpointPages !== null) db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
const committer = sqliteCommitter(db, { mergeEveryMs: issueEventsMergeMs });
const post = (message: FromThread<CommitResponse>) => port.postMessage(message);

type CommitMessage = Extract<ToThread<CommitRequest>, { type: "request" }>;

/**
 * One transaction for all of them; if the database refuses one batch's data, each batch again on its
 * own, so that batch fails alone instead of taking the requests grouped with it down too.
 */
function commitTogether(batches: CommitMessage[]): void {
  try {
    // Span containers are read here, off the main thread (src/items/span-containers.ts).
    const read = batches.map((batch) => readSpanContainers(batch.body, spanGroupsOf));
    const results = committer.commit(read.flatMap(({ records }) => records));
    let offset = 0;
    batches.forEach((batch, index) => {
      const { records, answer } = read[index]!;
      post({ type: "done", id: batch.id, body: answer(results.slice(offset, offset + records.length)) });
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

// Only SqliteCommitThread posts here, so the messages are ToThread<CommitRequest> by construction.
port.on("message", (first: ToThread<CommitRequest>) => {
  const waiting = [first];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) waiting.push(next.message as ToThread<CommitRequest>);
  const batches = waiting.filter((message): message is CommitMessage => message.type === "request");
  if (batches.length > 0) commitTogether(batches);
  // close() is posted after every commit it waits for, and nothing is posted after it.
  if (waiting.some((message) => message.type === "close")) {
    db.close();
    port.close();
  }
});
