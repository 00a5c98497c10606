/**
 * The ingest worker thread over a real SQLite file: it stores exactly what the in-process pipeline
 * stores, answers only after the commit, maps bad input to the same AppErrors, shares the file with
 * the main thread's connection, bounds the bytes waiting for it (429), fails open jobs with 503 when
 * it dies (reported as a fault) and comes back by itself, and commits what it accepted before it
 * closes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config";
import { AppError } from "../../src/errors";
import { parseEnvelope } from "../../src/ingest/envelope";
import { inProcessSink, type IngestJob, type IngestSink } from "../../src/ingest/sink";
import { WorkerSink } from "../../src/ingest/worker-sink";
import { GroupCommitWriter } from "../../src/ingest/writer";
import { createItemRegistry } from "../../src/items";
import type { ItemContext } from "../../src/items/types";
import { createLogger } from "../../src/logger";
import { ensureDefaults } from "../../src/services/projects/ensure-defaults";
import { createSqliteStorage } from "../../src/storage/sqlite";
import type { Storage } from "../../src/storage/types";
import { FIXTURE_KEY, readdressedEnvelope } from "../helpers/fixtures";
import { threadNames } from "../helpers/thread-names";

const RECEIVED_AT = Date.parse("2026-11-23T12:00:00Z");

interface Setup {
  dir: string;
  storage: Storage;
  projectId: string;
}

async function setUp(): Promise<Setup> {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-worker-sink-"));
  const storage = createSqliteStorage(dir);
  const { project } = await ensureDefaults(storage);
  return { dir, storage, projectId: project.id };
}

async function tearDown(setup: Setup): Promise<void> {
  await setup.storage.close();
  rmSync(setup.dir, { recursive: true, force: true });
}

function startSink(setup: Setup, options: { maxInFlightBytes?: number; faults?: unknown[] } = {}): Promise<WorkerSink> {
  return WorkerSink.start({
    config: loadConfig({ DATA_DIR: setup.dir, LOG_LEVEL: "silent" }),
    logger: createLogger("silent"),
    onFault: (error) => options.faults?.push(error),
    maxInFlightBytes: options.maxInFlightBytes,
    restartDelayMs: 50,
  });
}

/** A captured envelope as the door hands it on, with a fresh event id (or the one given). */
function envelopeJob(name: string, projectId: string, eventId?: string): { job: Extract<IngestJob, { kind: "envelope" }>; eventId: string } {
  const readdressed = readdressedEnvelope(name, { publicKey: FIXTURE_KEY }, eventId);
  const envelope = parseEnvelope(readdressed.body);
  const context: ItemContext = {
    projectId, envelopeHeaders: envelope.headers, receivedAt: RECEIVED_AT, clientIp: "203.0.113.9", userAgent: "test-agent",
  };
  return { job: { kind: "envelope", items: envelope.items, context }, eventId: readdressed.eventId };
}

function storeJob(body: string, projectId: string): IngestJob {
  return {
    kind: "store",
    body: Buffer.from(body),
    context: { projectId, envelopeHeaders: {}, receivedAt: RECEIVED_AT, clientIp: undefined, userAgent: undefined },
  };
}

/** The AppError a promise rejects with, as plain fields. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; retryAfterSeconds: number | null }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    return { code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  }
  assert.fail("expected a rejection");
}

describe("WorkerSink", () => {
  let setup: Setup;
  let sink: WorkerSink;

  beforeEach(async () => {
    setup = await setUp();
    sink = await startSink(setup);
  });
  afterEach(async () => {
    await sink.close();
    await tearDown(setup);
  });

  it("stores exactly what the in-process pipeline stores, and answers with the event id after the commit", async () => {
    const other = await setUp();
    const local: IngestSink = inProcessSink(
      createItemRegistry({ maxEventBytes: 1 << 20 }),
      new GroupCommitWriter(other.storage.ingest, { flushMs: 0, maxPending: 100 }),
      { maxEventBytes: 1 << 20 },
    );
    try {
      for (const name of ["node-error-cause", "node-message", "node-fingerprint", "browser-uncaught-error"]) {
        const viaWorker = envelopeJob(name, setup.projectId);
        const inProcess = envelopeJob(name, other.projectId, viaWorker.eventId);
        assert.equal(await sink.ingest(viaWorker.job), viaWorker.eventId, name);
        assert.equal(await local.ingest(inProcess.job), inProcess.eventId, name);
        // Stored before the answer: the main thread's own connection reads it at once.
        const stored = await setup.storage.events.get(setup.projectId, viaWorker.eventId);
        const expected = await other.storage.events.get(other.projectId, inProcess.eventId);
        assert.ok(stored && expected, name);
        assert.deepEqual({ ...stored, projectId: "", issueId: "" }, { ...expected, projectId: "", issueId: "" }, name);
      }
    } finally {
      await local.close();
      await tearDown(other);
    }
  });

  it("names its thread in /proc, once it is started", { skip: process.platform !== "linux" && "reads /proc" }, () => {
    assert.deepEqual([...threadNames().values()].filter((name) => name === "ingest"), ["ingest"]);
  });

  it("refuses bad input with the same errors as the in-process pipeline, and stores the good job beside it", async () => {
    const good = envelopeJob("node-message", setup.projectId);
    const [bad, ok] = await Promise.allSettled([sink.ingest(storeJob("{not json", setup.projectId)), sink.ingest(good.job)]);
    assert.equal(ok.status === "fulfilled" && ok.value, good.eventId);
    assert.equal(bad.status, "rejected");
    assert.deepEqual(await refusal(Promise.reject((bad as PromiseRejectedResult).reason)), {
      code: "bad_request",
      message: `invalid JSON data: ${jsonError("{not json")}`,
      retryAfterSeconds: null,
    });
    const twoEvents = envelopeJob("node-message", setup.projectId);
    const doubled: IngestJob = { ...twoEvents.job, items: [...twoEvents.job.items, ...twoEvents.job.items] };
    assert.deepEqual(await refusal(sink.ingest(doubled)), {
      code: "payload_too_large",
      message: "envelope exceeded size limits for type 'event' (https://develop.sentry.dev/sdk/envelopes/#size-limits)",
      retryAfterSeconds: null,
    });
    assert.equal(await setup.storage.events.get(setup.projectId, twoEvents.eventId), null);
  });

  it("shares the SQLite file with the main thread's connection: writes on both sides wait for each other, none fails", async () => {
    const outcome = (quantity: number) => ({
      kind: "outcome" as const, projectId: setup.projectId, outcome: "accepted" as const, category: "error", reason: null, quantity, timestamp: RECEIVED_AT,
    });
    const jobs = Array.from({ length: 60 }, () => envelopeJob("node-message", setup.projectId));
    const viaWorker = Promise.all(jobs.map(({ job }) => sink.ingest(job)));
    // Meanwhile the main thread's own connection commits (as self-monitoring and the UI do).
    for (let i = 1; i <= 30; i++) {
      await setup.storage.ingest.commit([outcome(i)]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(await viaWorker, jobs.map(({ eventId }) => eventId));
    const totals = await setup.storage.outcomes.totals(setup.projectId, RECEIVED_AT - 3_600_000);
    // 1 + 2 + ... + 30 from the main thread, and one accepted outcome per event from the worker.
    assert.deepEqual(totals, [{ outcome: "accepted", category: "error", reason: null, quantity: (30 * 31) / 2 + jobs.length }]);
  });

  it("fails open jobs with 503 when the worker dies, then starts it again and stores", async () => {
    const faults: unknown[] = [];
    await sink.close();
    sink = await startSink(setup, { faults });
    const before = envelopeJob("node-message", setup.projectId);
    const pending = sink.ingest(before.job);
    await sink.crashForTesting();
    const outcome = await Promise.allSettled([pending]);
    // The job was either committed before the thread stopped, or refused with a retryable 503 and not stored.
    const stored = await setup.storage.events.get(setup.projectId, before.eventId);
    assert.equal(outcome[0].status === "fulfilled", stored !== null);
    if (outcome[0].status === "rejected") {
      assert.deepEqual(await refusal(Promise.reject(outcome[0].reason)), {
        code: "unavailable",
        message: "ingest stopped before the envelope was stored, retry shortly",
        retryAfterSeconds: 1,
      });
    }
    assert.equal(sink.running, false);
    assert.deepEqual(faults.map((fault) => (fault as Error).message), ["the ingest worker stopped with exit code 1"]);
    assert.deepEqual(await refusal(sink.ingest(envelopeJob("node-message", setup.projectId).job)), {
      code: "unavailable",
      message: "ingest is restarting, retry shortly",
      retryAfterSeconds: 1,
    });
    while (!sink.running) await new Promise((resolve) => setTimeout(resolve, 20));
    const after = envelopeJob("node-error-cause", setup.projectId);
    assert.equal(await sink.ingest(after.job), after.eventId);
    assert.ok(await setup.storage.events.get(setup.projectId, after.eventId));
  });

  it("stops a worker that finishes restarting after close() began, so no thread keeps the database open", async () => {
    await sink.crashForTesting();
    assert.equal(sink.running, false);
    await new Promise((resolve) => setTimeout(resolve, 60)); // the restart (50 ms) is under way
    await sink.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(sink.running, false);
  });

  it("answers 429 once too many bytes wait for the worker, and takes a large job when nothing waits", async () => {
    await sink.close();
    const job = envelopeJob("node-error-cause", setup.projectId);
    const size = job.job.items.reduce((sum, item) => sum + item.payload.length, 0);
    sink = await startSink(setup, { maxInFlightBytes: Math.floor(size * 2.5) });
    const jobs = Array.from({ length: 6 }, () => envelopeJob("node-error-cause", setup.projectId));
    const results = await Promise.allSettled(jobs.map(({ job: each }) => sink.ingest(each)));
    assert.deepEqual(results.map((result) => result.status), ["fulfilled", "fulfilled", "rejected", "rejected", "rejected", "rejected"]);
    assert.deepEqual(await refusal(Promise.reject((results[2] as PromiseRejectedResult).reason)), {
      code: "rate_limited",
      message: "ingest is over capacity: too much data is waiting to be stored, retry shortly",
      retryAfterSeconds: 1,
    });
    // Answered jobs no longer count: the same size is taken again.
    const again = envelopeJob("node-error-cause", setup.projectId);
    assert.equal(await sink.ingest(again.job), again.eventId);
  });

  it("commits what it accepted before it closes, and refuses afterwards", async () => {
    const jobs = Array.from({ length: 20 }, () => envelopeJob("node-message", setup.projectId));
    const answers = jobs.map(({ job }) => sink.ingest(job));
    await sink.close();
    assert.deepEqual(await Promise.all(answers), jobs.map(({ eventId }) => eventId));
    for (const { eventId } of jobs) assert.ok(await setup.storage.events.get(setup.projectId, eventId), eventId);
    assert.deepEqual(await refusal(sink.ingest(envelopeJob("node-message", setup.projectId).job)), {
      code: "unavailable",
      message: "the server is shutting down",
      retryAfterSeconds: 5,
    });
  });
});

describe("WorkerSink start", () => {
  it("rejects with the worker's reason when its storage cannot be opened", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-worker-sink-"));
    // A file where the data directory should be: the worker cannot create the database in it.
    const notADirectory = path.join(dir, "file");
    writeFileSync(notADirectory, "");
    try {
      await assert.rejects(
        WorkerSink.start({
          config: loadConfig({ DATA_DIR: notADirectory, LOG_LEVEL: "silent" }),
          logger: createLogger("silent"),
          onFault: () => assert.fail("a failed start is not a fault"),
        }),
        (error: unknown) => error instanceof Error && /^E(EXIST|NOTDIR)\b/.test(error.message) && error.message.includes(notADirectory),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}
