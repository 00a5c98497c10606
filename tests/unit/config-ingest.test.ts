/** INGEST_WORKER, SQLITE_COMMIT_THREAD and the writer's flush window they choose the default of; bad values are refused by name. */
import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config";

const ingestOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return { ingestWorker: config.ingestWorker, sqliteCommitThread: config.sqliteCommitThread, writer: config.writer };
};

it("on SQLite commits on the commit thread and flushes on the next turn unless told otherwise", () => {
  const expected = { ingestWorker: false, sqliteCommitThread: true, writer: { flushMs: 0, maxPending: 20000 } };
  assert.deepEqual(ingestOf({}), expected);
  assert.deepEqual(ingestOf({ INGEST_WORKER: "false", SQLITE_COMMIT_THREAD: "true" }), expected);
});

it("commits on the main thread with a 2 ms flush window when the commit thread is off, and on PostgreSQL", () => {
  const onMain = { ingestWorker: false, sqliteCommitThread: false, writer: { flushMs: 2, maxPending: 20000 } };
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "false" }), onMain);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "0" }), onMain);
  assert.deepEqual(ingestOf({ DATABASE_URL: "postgres://u:p@db.example:5432/periscope" }), onMain);
  assert.deepEqual(ingestOf({ DATABASE_URL: "postgres://u:p@db.example:5432/periscope", SQLITE_COMMIT_THREAD: "true" }), onMain);
});

it("on the worker thread flushes on the next turn by default and has no commit thread, and keeps an explicit window", () => {
  assert.deepEqual(ingestOf({ INGEST_WORKER: "true" }), { ingestWorker: true, sqliteCommitThread: false, writer: { flushMs: 0, maxPending: 20000 } });
  assert.deepEqual(ingestOf({ INGEST_WORKER: "1", WRITER_FLUSH_MS: "5" }), { ingestWorker: true, sqliteCommitThread: false, writer: { flushMs: 5, maxPending: 20000 } });
  assert.deepEqual(
    ingestOf({ INGEST_WORKER: "0", SQLITE_COMMIT_THREAD: "0", WRITER_FLUSH_MS: "0" }),
    { ingestWorker: false, sqliteCommitThread: false, writer: { flushMs: 0, maxPending: 20000 } },
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
  assert.throws(() => loadConfig({ WRITER_FLUSH_MS: "-1" }), (error: unknown) => error instanceof ConfigError && /^WRITER_FLUSH_MS: /.test(error.problems[0]!));
});
