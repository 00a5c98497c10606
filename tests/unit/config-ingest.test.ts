/** INGEST_WORKER and the writer's flush window it chooses the default of; bad values are refused by name. */
import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config";

const ingestOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return { ingestWorker: config.ingestWorker, writer: config.writer };
};

it("runs the pipeline on the main thread with a 2 ms flush window unless told otherwise", () => {
  assert.deepEqual(ingestOf({}), { ingestWorker: false, writer: { flushMs: 2, maxPending: 20000 } });
  assert.deepEqual(ingestOf({ INGEST_WORKER: "false" }), { ingestWorker: false, writer: { flushMs: 2, maxPending: 20000 } });
});

it("on the worker thread flushes on the next turn by default, and keeps an explicit window", () => {
  assert.deepEqual(ingestOf({ INGEST_WORKER: "true" }), { ingestWorker: true, writer: { flushMs: 0, maxPending: 20000 } });
  assert.deepEqual(ingestOf({ INGEST_WORKER: "1", WRITER_FLUSH_MS: "5" }), { ingestWorker: true, writer: { flushMs: 5, maxPending: 20000 } });
  assert.deepEqual(ingestOf({ INGEST_WORKER: "0", WRITER_FLUSH_MS: "0" }), { ingestWorker: false, writer: { flushMs: 0, maxPending: 20000 } });
});

it("refuses values it does not know, naming the setting", () => {
  assert.throws(() => loadConfig({ INGEST_WORKER: "yes" }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 1);
    assert.match(error.problems[0]!, /^INGEST_WORKER: /);
    return true;
  });
  assert.throws(() => loadConfig({ WRITER_FLUSH_MS: "-1" }), (error: unknown) => error instanceof ConfigError && /^WRITER_FLUSH_MS: /.test(error.problems[0]!));
});
