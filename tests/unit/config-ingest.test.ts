/**
 * INGEST_WORKER, SQLITE_COMMIT_THREAD and the writer's flush window they choose the default of, and
 * SQLITE_CHECKPOINT_INTERVAL_MS, which only the commit thread uses; bad values are refused by name.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config";

const ingestOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return {
    ingestWorker: config.ingestWorker,
    sqliteCommitThread: config.sqliteCommitThread,
    sqliteCheckpointIntervalMs: config.sqliteCheckpointIntervalMs,
    writer: config.writer,
  };
};

it("on SQLite commits on the commit thread and flushes on the next turn unless told otherwise", () => {
  const expected = { ingestWorker: false, sqliteCommitThread: true, sqliteCheckpointIntervalMs: 2, writer: { flushMs: 0, maxPending: 20000 } };
  assert.deepEqual(ingestOf({}), expected);
  assert.deepEqual(ingestOf({ INGEST_WORKER: "false", SQLITE_COMMIT_THREAD: "true" }), expected);
});

it("commits on the main thread with a 2 ms flush window when the commit thread is off, and on PostgreSQL", () => {
  const onMain = { ingestWorker: false, sqliteCommitThread: false, sqliteCheckpointIntervalMs: null, writer: { flushMs: 2, maxPending: 20000 } };
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "false" }), onMain);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "0" }), onMain);
  assert.deepEqual(ingestOf({ DATABASE_URL: "postgres://u:p@db.example:5432/periscope" }), onMain);
  assert.deepEqual(ingestOf({ DATABASE_URL: "postgres://u:p@db.example:5432/periscope", SQLITE_COMMIT_THREAD: "true" }), onMain);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "false", SQLITE_CHECKPOINT_INTERVAL_MS: "50" }), onMain);
});

it("checkpoints on a thread of their own at the interval given, and on the commit connection when it is 0", () => {
  const withInterval = (value: string) => ingestOf({ SQLITE_CHECKPOINT_INTERVAL_MS: value }).sqliteCheckpointIntervalMs;
  assert.deepEqual(["5", "250", "0"].map(withInterval), [5, 250, null]);
});

it("on the worker thread flushes on the next turn by default and has no commit thread, and keeps an explicit window", () => {
  assert.deepEqual(ingestOf({ INGEST_WORKER: "true" }), { ingestWorker: true, sqliteCommitThread: false, sqliteCheckpointIntervalMs: null, writer: { flushMs: 0, maxPending: 20000 } });
  assert.deepEqual(ingestOf({ INGEST_WORKER: "1", WRITER_FLUSH_MS: "5" }), { ingestWorker: true, sqliteCommitThread: false, sqliteCheckpointIntervalMs: null, writer: { flushMs: 5, maxPending: 20000 } });
  assert.deepEqual(
    ingestOf({ INGEST_WORKER: "0", SQLITE_COMMIT_THREAD: "0", WRITER_FLUSH_MS: "0" }),
    { ingestWorker: false, sqliteCommitThread: false, sqliteCheckpointIntervalMs: null, writer: { flushMs: 0, maxPending: 20000 } },
  );
});

it("refuses values it does not know, naming the setting", () => {
  for (const name of ["INGEST_WORKER", "SQLITE_COMMIT_THREAD"]) {
    assert.throws(() => loadConfig({ [name]: "yes" }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 1);
      assert.match(error.problems[0]!, new RegExp(`^${name}: `));
      return true;
    });
  }
  for (const [name, value] of [["WRITER_FLUSH_MS", "-1"], ["SQLITE_CHECKPOINT_INTERVAL_MS", "-1"], ["SQLITE_CHECKPOINT_INTERVAL_MS", "soon"]]) {
    assert.throws(() => loadConfig({ [name!]: value! }), (error: unknown) => error instanceof ConfigError && new RegExp(`^${name}: `).test(error.problems[0]!));
  }
});
