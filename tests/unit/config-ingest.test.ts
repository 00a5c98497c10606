/**
 * The one ingest topology (Config.ingest) from SQLITE_COMMIT_THREAD, SQLITE_CHECKPOINT_INTERVAL_MS and
 * DATABASE_URL, the writer's flush window it chooses the default of, and every combination that
 * contradicts it refused by the setting's name; INGEST_WORKER=true is refused as removed.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config";

const ingestOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return { ingest: config.ingest, writer: config.writer };
};

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  throw new Error("expected a ConfigError");
};

const POSTGRES = "postgres://u:p@db.example:5432/periscope";

it("on SQLite commits on the commit thread, checkpoints every 2 ms and flushes on the next turn unless told otherwise", () => {
  const expected = { ingest: { engine: "sqlite", commits: "thread", checkpointIntervalMs: 2 }, writer: { flushMs: 0, maxPending: 20000 } };
  assert.deepEqual(ingestOf({}), expected);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "true" }), expected);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "1", INGEST_WORKER: "false" }), expected);
});

it("commits inline with a 2 ms flush window when the commit thread is off", () => {
  const inline = { ingest: { engine: "sqlite", commits: "inline" }, writer: { flushMs: 2, maxPending: 20000 } };
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "false" }), inline);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "0" }), inline);
  assert.deepEqual(ingestOf({ SQLITE_COMMIT_THREAD: "false", SQLITE_CHECKPOINT_INTERVAL_MS: "0" }), inline);
});

it("has one PostgreSQL topology, with the 2 ms flush window", () => {
  assert.deepEqual(ingestOf({ DATABASE_URL: POSTGRES }), { ingest: { engine: "postgres" }, writer: { flushMs: 2, maxPending: 20000 } });
});

it("checkpoints on a thread of their own at the interval given, and on the commit connection when it is 0", () => {
  const withInterval = (value: string) => ingestOf({ SQLITE_CHECKPOINT_INTERVAL_MS: value }).ingest;
  assert.deepEqual(["5", "250", "0"].map(withInterval), [
    { engine: "sqlite", commits: "thread", checkpointIntervalMs: 5 },
    { engine: "sqlite", commits: "thread", checkpointIntervalMs: 250 },
    { engine: "sqlite", commits: "thread", checkpointIntervalMs: null },
  ]);
});

it("keeps an explicit flush window in every topology", () => {
  assert.equal(ingestOf({ WRITER_FLUSH_MS: "5" }).writer.flushMs, 5);
  assert.equal(ingestOf({ SQLITE_COMMIT_THREAD: "false", WRITER_FLUSH_MS: "0" }).writer.flushMs, 0);
  assert.equal(ingestOf({ DATABASE_URL: POSTGRES, WRITER_FLUSH_MS: "7" }).writer.flushMs, 7);
});

it("refuses settings that contradict the topology, naming each", () => {
  assert.deepEqual(problemsOf({ DATABASE_URL: POSTGRES, SQLITE_COMMIT_THREAD: "true", SQLITE_CHECKPOINT_INTERVAL_MS: "5" }), [
    "SQLITE_COMMIT_THREAD: applies to SQLite only, but DATABASE_URL selects PostgreSQL; unset one of them",
    "SQLITE_CHECKPOINT_INTERVAL_MS: applies to SQLite only, but DATABASE_URL selects PostgreSQL; unset one of them",
  ]);
  assert.deepEqual(problemsOf({ SQLITE_COMMIT_THREAD: "false", SQLITE_CHECKPOINT_INTERVAL_MS: "50" }), [
    "SQLITE_CHECKPOINT_INTERVAL_MS: the checkpoint thread needs the commit thread, which SQLITE_COMMIT_THREAD=false turns off; set it to 0 or unset it",
  ]);
});

it("refuses the removed ingest worker by name", () => {
  for (const value of ["true", "1"]) {
    assert.deepEqual(problemsOf({ INGEST_WORKER: value }), [
      "INGEST_WORKER: the ingest worker thread was removed (docs/adr/0012-one-ingest-topology.md); unset it",
    ]);
  }
});

it("refuses values it does not know, naming the setting", () => {
  for (const [name, value] of [
    ["INGEST_WORKER", "yes"], ["SQLITE_COMMIT_THREAD", "yes"], ["WRITER_FLUSH_MS", "-1"],
    ["SQLITE_CHECKPOINT_INTERVAL_MS", "-1"], ["SQLITE_CHECKPOINT_INTERVAL_MS", "soon"], ["SQLITE_CHECKPOINT_INTERVAL_MS", "60001"],
  ] as const) {
    const problems = problemsOf({ [name]: value });
    assert.equal(problems.length, 1, `${name}=${value}: ${problems.join("; ")}`);
    assert.match(problems[0]!, new RegExp(`^${name}: `));
  }
});
