/**
 * Group commit over a real SQLite store: concurrent submissions share one transaction and each gets
 * its own results in order; the queue bound answers 429; a failed commit — rejected or thrown —
 * rejects every waiter with 503, commits nothing and gives its room in the bound back; drain()
 * waits for everything queued.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, it } from "node:test";
import { AppError } from "../../src/errors";
import { GroupCommitWriter } from "../../src/ingest/writer";
import { createSqliteStorage } from "../../src/storage/sqlite";
import type { IngestRecord } from "../../src/model";
import type { IngestStore, Storage } from "../../src/storage/types";

let dir: string;
let storage: Storage;
let commits: number;
let store: IngestStore;

const outcome = (projectId: string, quantity: number): IngestRecord => ({
  kind: "outcome", projectId, outcome: "accepted", category: "error", reason: null, quantity, timestamp: Date.now(),
});

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "periscope-writer-"));
  storage = createSqliteStorage(dir);
  commits = 0;
  store = { commit: (records) => (commits++, storage.ingest.commit(records)) };
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

it("commits concurrent submissions in one transaction and answers each with its own results", async () => {
  const writer = new GroupCommitWriter(store, { flushMs: 5, maxPending: 100 });
  const answers = await Promise.all([writer.submit([outcome("1", 1)]), writer.submit([outcome("1", 2), outcome("1", 3)]), writer.submit([])]);
  assert.deepEqual(answers, [[{ kind: "outcome" }], [{ kind: "outcome" }, { kind: "outcome" }], []]);
  assert.equal(commits, 1);
  assert.deepEqual(await storage.outcomes.totals("1", 0), [{ outcome: "accepted", category: "error", reason: null, quantity: 6 }]);
});

it("refuses with 429 beyond the bound instead of queueing, and accepts again once committed", async () => {
  const writer = new GroupCommitWriter(store, { flushMs: 5, maxPending: 2 });
  const first = writer.submit([outcome("1", 1), outcome("1", 1)]);
  await assert.rejects(writer.submit([outcome("1", 1)]), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.deepEqual([error.code, error.retryAfterSeconds], ["rate_limited", 1]);
    return true;
  });
  await first;
  assert.deepEqual(await writer.submit([outcome("1", 1)]), [{ kind: "outcome" }]);
});

it("counts a span container not read yet as the spans it declares, clamped to 1..1000, and answers it as one record", async () => {
  const container = (itemCount: unknown): IngestRecord => ({
    kind: "span_container", projectId: "1", json: '{"items":[]}', itemCount, receivedAt: Date.now(), shift: 0, sdkName: null,
  });
  const writer = new GroupCommitWriter(store, { flushMs: 5, maxPending: 20 });
  // 15 declared spans + the container = 16 of 20: four more records fit, five do not.
  const first = writer.submit([container(15)]);
  await assert.rejects(writer.submit([outcome("1", 1), outcome("1", 1), outcome("1", 1), outcome("1", 1), outcome("1", 1)]), { code: "rate_limited" });
  const fits = writer.submit([outcome("1", 1), outcome("1", 1), outcome("1", 1), outcome("1", 1)]);
  assert.deepEqual(await first, [{ kind: "span" }]);
  await fits;
  const huge = new GroupCommitWriter(store, { flushMs: 5, maxPending: 1_001 });
  await assert.rejects(huge.submit([container(5_000), outcome("1", 1)]), { code: "rate_limited" });
  assert.deepEqual(await huge.submit([container(5_000)]), [{ kind: "span" }]);
  assert.deepEqual(await huge.submit([container("many")]), [{ kind: "span" }]);
});

it("rejects every waiter of a failed batch with 503 and Retry-After, committing none of it", async () => {
  const writer = new GroupCommitWriter(
    { commit: async (records) => { if (records.some((r) => r.kind === "outcome" && r.quantity === 13)) throw new Error("disk full"); return storage.ingest.commit(records); } },
    { flushMs: 5, maxPending: 100 },
  );
  const results = await Promise.allSettled([writer.submit([outcome("1", 1)]), writer.submit([outcome("1", 13)])]);
  for (const result of results) {
    assert.equal(result.status, "rejected");
    const error = (result as PromiseRejectedResult).reason as AppError;
    assert.deepEqual([error.code, error.message, error.causes, error.retryAfterSeconds], ["unavailable", "failed to store envelope", ["Error: disk full"], 5]);
  }
  assert.deepEqual(await storage.outcomes.totals("1", 0), []);
});

it("treats a store that throws instead of rejecting like a failed commit, and gives the room back", async () => {
  let calls = 0;
  const writer = new GroupCommitWriter(
    { commit: (records) => { if (calls++ === 0) throw new Error("cannot start a thread"); return storage.ingest.commit(records); } },
    { flushMs: 5, maxPending: 2 },
  );
  await assert.rejects(writer.submit([outcome("1", 1), outcome("1", 2)]), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.deepEqual([error.code, error.causes, error.retryAfterSeconds], ["unavailable", ["Error: cannot start a thread"], 5]);
    return true;
  });
  assert.equal(writer.pending, 0);
  assert.deepEqual(await writer.submit([outcome("1", 3), outcome("1", 4)]), [{ kind: "outcome" }, { kind: "outcome" }]);
  await writer.drain();
});

it("drain() commits what is still queued", async () => {
  const writer = new GroupCommitWriter(store, { flushMs: 1000, maxPending: 100 });
  const pending = writer.submit([outcome("1", 4)]);
  await writer.drain();
  assert.deepEqual(await pending, [{ kind: "outcome" }]);
  assert.deepEqual(await storage.outcomes.totals("1", 0), [{ outcome: "accepted", category: "error", reason: null, quantity: 4 }]);
});
