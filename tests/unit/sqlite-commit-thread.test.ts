/**
 * The SQLite commit thread over a real file (what it stores is the storage contract's business,
 * run on it in storage-sqlite.test.ts): a thread that dies fails the commits it had not finished,
 * says why, and the next commit starts a new one; close() commits everything it was handed first;
 * a batch the database refuses fails alone, not the batches committed together with it; the main
 * connection writes beside it without SQLITE_BUSY; the checkpoint thread copies committed pages into
 * the database file.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { processEnvelope } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import { ensureDefaults } from "../../src/services/projects/ensure-defaults";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../../src/storage/sqlite";
import Database from "better-sqlite3";
import { refusesOneBatch } from "../../src/storage/sqlite/commit-errors";
import { SqliteCheckpointThread } from "../../src/storage/sqlite/checkpoint.main";
import { SqliteCommitThread } from "../../src/storage/sqlite/commit.main";
import type { IngestRecord, SpanContainerRecord } from "../../src/model";
import type { Storage } from "../../src/storage/types";
import { FIXTURE_KEY, readdressedEnvelope } from "../helpers/fixtures";
import { threadFiles, threadNames } from "../helpers/thread-names";

const registry = createItemRegistry({ maxEventBytes: 1 << 20 });
let dir: string;
let storage: Storage;
let projectId: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "periscope-commit-thread-"));
  storage = createSqliteStorage(dir);
  projectId = (await ensureDefaults(storage)).project.id;
});

afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One captured error event with a fresh id, processed as the door would. */
function errorRecords(): { records: IngestRecord[]; eventId: string } {
  const { body, eventId } = readdressedEnvelope("node-error-cause", { publicKey: FIXTURE_KEY });
  const envelope = parseEnvelope(body);
  const context = { projectId, envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "test" };
  return { records: processEnvelope(envelope, registry, context).records, eventId };
}

const storedIds = async (eventIds: string[]) => {
  const stored = await Promise.all(eventIds.map((id) => storage.events.get(projectId, id)));
  return stored.map((event) => event?.eventId ?? null);
};

it("counts every outcome of a batch, which it hands over summed, and answers each record in its place", async () => {
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  try {
    const requests = Array.from({ length: 3 }, errorRecords);
    const results = await thread.commit(requests.flatMap((request) => request.records));
    const stored = await Promise.all(requests.map((request) => storage.events.get(projectId, request.eventId)));
    assert.deepEqual(
      results,
      stored.flatMap((event) => [{ kind: "event", issueId: event?.issueId, duplicate: false }, { kind: "outcome" }]),
    );
    assert.deepEqual(await storage.outcomes.totals(projectId, 0), [{ outcome: "accepted", category: "error", reason: null, quantity: 3 }]);
  } finally {
    await thread.close();
  }
});

it("fails the commits a dead thread had not finished, says why, refuses commits for the restart delay, then starts a new thread", async () => {
  const stopped: string[] = [];
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME), { onStopped: (reason) => stopped.push(reason), restartDelayMs: 200 });
  try {
    const lost = errorRecords();
    const pending = thread.commit(lost.records);
    // The thread is still starting: the batch was handed over but cannot have been committed.
    await thread.crashForTesting();
    // terminate() while the thread still loads its modules exits with code 0 or 1, depending on the moment.
    const reason = /^the SQLite commit thread stopped \(exit code [01]\)$/;
    await assert.rejects(pending, { message: reason });
    assert.equal(stopped.length, 1);
    assert.match(stopped[0]!, reason);

    const early = errorRecords();
    await assert.rejects(thread.commit(early.records), { message: "the SQLite commit thread stopped and restarts shortly" });
    // start() keeps the same delay: no thread started in a tight loop either.
    thread.start();
    await assert.rejects(thread.commit(early.records), { message: "the SQLite commit thread stopped and restarts shortly" });
    await new Promise((resolve) => setTimeout(resolve, 250));

    const kept = errorRecords();
    const [result] = await thread.commit(kept.records);
    const stored = await storage.events.get(projectId, kept.eventId);
    assert.deepEqual(result, { kind: "event", issueId: stored?.issueId, duplicate: false });
    assert.deepEqual(await storedIds([lost.eventId, early.eventId, kept.eventId]), [null, null, kept.eventId]);
  } finally {
    await thread.close();
  }
  assert.equal(stopped.length, 1, "a close is not reported as a stop");
});

it("has stored every batch it answered when it dies in the middle of a stream of commits", async () => {
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME), { restartDelayMs: 0 });
  try {
    await thread.commit(errorRecords().records);
    const batches = Array.from({ length: 40 }, errorRecords);
    const commits = batches.map((batch) => thread.commit(batch.records));
    // Dies once the first of them is answered, while the others are queued or being committed.
    await commits[0];
    await thread.crashForTesting();
    const settled = await Promise.allSettled(commits);
    const answered = batches.filter((_, i) => settled[i]!.status === "fulfilled").map((batch) => batch.eventId);
    const failed = settled.filter((result) => result.status === "rejected").map((result) => (result as PromiseRejectedResult).reason as Error);
    assert.ok(answered.length >= 1 && answered.length + failed.length === batches.length);
    // Answered means stored; a failed one may or may not be (the SDK retries it; its event id dedupes).
    assert.deepEqual(await storedIds(answered), answered);
    for (const error of failed) assert.match(error.message, /^the SQLite commit thread stopped \(exit code 1\)$/);
  } finally {
    await thread.close();
  }
});

it("commits every batch it was handed before close() resolves, then refuses new ones", async () => {
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  const batches = Array.from({ length: 5 }, errorRecords);
  const commits = batches.map((batch) => thread.commit(batch.records));
  await thread.close();
  const results = await Promise.all(commits);
  assert.deepEqual(results.map((r) => r.map((result) => result.kind)), batches.map(() => ["event", "outcome"]));
  assert.deepEqual(await storedIds(batches.map((b) => b.eventId)), batches.map((b) => b.eventId));
  await assert.rejects(thread.commit(errorRecords().records), { message: "the SQLite storage is closing" });
});

it("lets the main connection write while the thread commits", async () => {
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  try {
    const batches = Array.from({ length: 20 }, errorRecords);
    const commits = Promise.all(batches.map((batch) => thread.commit(batch.records)));
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => storage.projects.create({ organizationId: "1", slug: `beside-${i}`, name: `Beside ${i}`, platform: null })),
    );
    await commits;
    assert.deepEqual(created.map((project) => project.slug), Array.from({ length: 20 }, (_, i) => `beside-${i}`));
    assert.deepEqual(await storedIds(batches.map((b) => b.eventId)), batches.map((b) => b.eventId));
  } finally {
    await thread.close();
  }
});

it("fails only the batch the database refuses when batches were committed together", async () => {
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  try {
    const before = errorRecords();
    const after = errorRecords();
    // NOT NULL on outcomes.category: a record no processor makes, standing in for any refusal.
    const refused: IngestRecord[] = [
      { kind: "outcome", projectId, outcome: "accepted", category: null as unknown as string, reason: null, quantity: 1, timestamp: Date.now() },
    ];
    // Handed over in one turn, so the thread finds all three waiting and tries them as one transaction.
    const commits = [thread.commit(before.records), thread.commit(refused), thread.commit(after.records)];
    const settled = await Promise.allSettled(commits);
    assert.deepEqual(
      settled.map((result) => (result.status === "rejected" ? (result.reason as Error).message : result.status)),
      ["fulfilled", "NOT NULL constraint failed: outcomes.category", "fulfilled"],
    );
    assert.deepEqual(await storedIds([before.eventId, after.eventId]), [before.eventId, after.eventId]);
  } finally {
    await thread.close();
  }
});

it("names why a thread that cannot open the database stopped", async () => {
  const stopped: string[] = [];
  // A directory where the file should be: SQLite cannot open it.
  const thread = new SqliteCommitThread(dir, { onStopped: (reason) => stopped.push(reason) });
  try {
    const expected = `the SQLite commit thread stopped (exit code 1: cannot open ${dir}: unable to open database file (SQLITE_CANTOPEN))`;
    await assert.rejects(thread.commit(errorRecords().records), { message: expected });
    assert.deepEqual(stopped, [expected]);
  } finally {
    await thread.close();
  }
});

it("retries a group batch by batch only for errors of one batch's data", () => {
  const file = path.join(dir, "classify.sqlite");
  const holder = new Database(file);
  const other = new Database(file, { timeout: 0 });
  try {
    holder.exec("CREATE TABLE t (v TEXT NOT NULL)");
    const thrown = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error("expected an error");
    };
    const notNull = thrown(() => holder.prepare("INSERT INTO t (v) VALUES (NULL)").run());
    const badBind = thrown(() => holder.prepare("INSERT INTO t (v) VALUES (?)").run({}));
    holder.exec("BEGIN IMMEDIATE");
    const busy = thrown(() => other.exec("BEGIN IMMEDIATE"));
    holder.exec("ROLLBACK");
    assert.deepEqual(
      [notNull, badBind, busy, new Error("disk I/O error")].map((error) => [(error as { code?: string }).code, refusesOneBatch(error)]),
      [["SQLITE_CONSTRAINT_NOTNULL", true], [undefined, true], ["SQLITE_BUSY", false], [undefined, false]],
    );
  } finally {
    holder.close();
    other.close();
  }
});

it("reads span containers on the thread: one answer per container, its spans and outcomes stored, a broken one counted without failing the rest", async () => {
  const { body } = readdressedEnvelope("telemetry/browser-span-v2-pageload", { publicKey: FIXTURE_KEY });
  const envelope = parseEnvelope(body);
  const context = { projectId, envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "test" };
  const containers = processEnvelope(envelope, registry, context).records;
  assert.deepEqual(containers.map((record) => record.kind), ["span_container"]);
  const container = containers[0] as SpanContainerRecord;
  const broken: SpanContainerRecord = { ...container, json: '{"items": [' };
  const error = errorRecords();

  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  try {
    // Handed over at once, so the thread commits them together in one transaction.
    const [spans, event, bad] = await Promise.all([thread.commit([container]), thread.commit(error.records), thread.commit([broken])]);
    const stored = await storage.events.get(projectId, error.eventId);
    assert.deepEqual(spans, [{ kind: "span" }]);
    assert.deepEqual(event, [{ kind: "event", issueId: stored?.issueId, duplicate: false }, { kind: "outcome" }]);
    assert.deepEqual(bad, [{ kind: "span" }]);
  } finally {
    await thread.close();
  }
  const raw = JSON.parse(container.json) as { items: { span_id: string; trace_id: string }[] };
  const trace = await storage.spans.trace([projectId], raw.items[0]!.trace_id);
  assert.deepEqual(trace.map((span) => span.spanId).sort(), raw.items.map((span) => span.span_id).sort());
  assert.deepEqual(await storage.outcomes.totals(projectId, 0), [
    { outcome: "accepted", category: "error", reason: null, quantity: 1 },
    { outcome: "accepted", category: "span", reason: null, quantity: 15 },
    { outcome: "invalid", category: "span", reason: "invalid_json", quantity: 15 },
  ]);
});

/** The event ids of `eventIds` found in a copy of the database file alone: what checkpoints have copied out of the WAL. */
function idsInDatabaseFile(eventIds: string[]): string[] | null {
  const copy = path.join(dir, "file-alone.sqlite");
  rmSync(`${copy}-wal`, { force: true });
  copyFileSync(path.join(dir, SQLITE_FILE_NAME), copy);
  const db = new Database(copy);
  try {
    const found = new Set(db.prepare<[], { event_id: string }>("SELECT event_id FROM events").all().map((row) => row.event_id));
    return eventIds.filter((id) => found.has(id));
  } catch (error) {
    // A copy taken while a checkpoint was writing pages into the file can be torn: null, try again.
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB") return null;
    throw error;
  } finally {
    db.close();
  }
}

/** The setup's writes (schema, default project) checkpointed, so the file alone has the tables. */
function checkpointSetup(): void {
  const db = new Database(path.join(dir, SQLITE_FILE_NAME));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

it("copies committed pages into the database file on the checkpoint thread", async () => {
  checkpointSetup();
  const problems: string[] = [];
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME), { checkpoints: { intervalMs: 10, onProblem: (reason) => problems.push(reason) } });
  const batches = Array.from({ length: 5 }, errorRecords);
  const ids = batches.map((batch) => batch.eventId);
  try {
    await Promise.all(batches.map((batch) => thread.commit(batch.records)));
    let copied: string[] | null = [];
    for (let waited = 0; waited < 5_000 && copied?.length !== ids.length; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      copied = idsInDatabaseFile(ids);
    }
    assert.deepEqual(copied, ids);
  } finally {
    await thread.close();
  }
  assert.deepEqual(problems, [], "a close is not reported as a problem");
});

it("leaves committed pages in the WAL without the checkpoint thread until SQLite's own 1,000-page checkpoint", async () => {
  checkpointSetup();
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  const batches = Array.from({ length: 5 }, errorRecords);
  try {
    await Promise.all(batches.map((batch) => thread.commit(batch.records)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(idsInDatabaseFile(batches.map((batch) => batch.eventId)), []);
    assert.deepEqual(await storedIds(batches.map((batch) => batch.eventId)), batches.map((batch) => batch.eventId));
  } finally {
    await thread.close();
  }
});

it("names why a checkpoint thread that cannot open the database stopped", async () => {
  const problems: string[] = [];
  const reported = new Promise<void>((resolve) => {
    // A directory where the file should be: SQLite cannot open it.
    const thread = new SqliteCheckpointThread(dir, { intervalMs: 10, onProblem: (reason) => (problems.push(reason), resolve()) });
    thread.start();
  });
  await reported;
  assert.deepEqual(problems, [`the SQLite checkpoint thread stopped (exit code 1: cannot open ${dir}: unable to open database file (SQLITE_CANTOPEN))`]);
});

/** A thread's niceness: field 19 of its /proc stat line. The command name before it is in parentheses and may hold spaces. */
const nicenessOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19 - 3]);

/** The niceness of each thread of this process. */
function threadNiceness(): number[] {
  return [...threadFiles("stat").values()].map(nicenessOf);
}

it("runs the checkpoint thread alone at the lowest priority, and no thread so after it stopped", { skip: process.platform !== "linux" && "reads /proc" }, async (t) => {
  const own = nicenessOf(readFileSync("/proc/thread-self/stat", "utf8"));
  if (own === 19) return t.skip("this process already runs at the lowest priority");
  const thread = new SqliteCheckpointThread(path.join(dir, SQLITE_FILE_NAME), { intervalMs: 10 });
  thread.start();
  try {
    let lowest: number[] = [];
    for (let waited = 0; waited < 5_000 && lowest.length === 0; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      lowest = threadNiceness().filter((nice) => nice !== own);
    }
    assert.deepEqual(lowest, [19]);
  } finally {
    await thread.close();
  }
  assert.deepEqual(threadNiceness().filter((nice) => nice !== own), []);
});

it("leaves checkpoints below 4,000 pages to the checkpoint thread on the main connection too, so a UI write never copies the WAL", async () => {
  const own = mkdtempSync(path.join(tmpdir(), "periscope-checkpoint-bound-"));
  // The checkpoint thread's first round is a minute away: whatever reaches the file comes from another connection.
  const withThreads = createSqliteStorage(own, { topology: { engine: "sqlite", commits: "thread", checkpointIntervalMs: 60_000 } });
  try {
    const project = (await ensureDefaults(withThreads)).project.id;
    const mediumEvents = () => {
      const { body, eventId } = readdressedEnvelope("bench/node-medium-error", { publicKey: FIXTURE_KEY });
      const envelope = parseEnvelope(body);
      const context = { projectId: project, envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "test" };
      return { records: processEnvelope(envelope, registry, context).records, eventId };
    };
    // ≈ 1,640 WAL pages in all (measured): well past SQLite's default of 1,000, below 4,000.
    const batches = Array.from({ length: 250 }, mediumEvents);
    const results = await Promise.all(batches.map((batch) => withThreads.ingest.commit(batch.records)));
    const first = results[0]?.[0];
    assert.ok(first?.kind === "event");
    // A UI write on the main connection (a plain UPDATE: SQLite checks the WAL's size when a statement runs to its end).
    await withThreads.issues.setStatus(first.issueId, "resolved");
    const copy = path.join(own, "file-alone.sqlite");
    copyFileSync(path.join(own, SQLITE_FILE_NAME), copy);
    const alone = new Database(copy);
    try {
      const tables = alone.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE name = 'events'").all();
      assert.deepEqual(tables, [], "not even the schema was copied into the file");
    } finally {
      alone.close();
    }
    const stored = await Promise.all(batches.slice(0, 3).map((batch) => withThreads.events.get(project, batch.eventId)));
    assert.deepEqual(stored.map((event) => event?.eventId), batches.slice(0, 3).map((batch) => batch.eventId));
  } finally {
    await withThreads.close();
    rmSync(own, { recursive: true, force: true });
  }
});

/** The names of this process's threads other than the main one, sorted. */
const workerThreadNames = () => [...threadNames()].filter(([tid]) => tid !== process.pid).map(([, name]) => name).sort();
const sqliteThreadNames = () => workerThreadNames().filter((name) => name.startsWith("sqlite-"));

/** Threads name themselves as they load (under tsx ≈ 0.6–0.9 s after they start): waits up to `ms` for `count` of them. */
async function waitForSqliteThreads(count: number, ms = 5_000): Promise<string[]> {
  for (let waited = 0; waited < ms && sqliteThreadNames().length < count; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return sqliteThreadNames();
}

it("names the commit and checkpoint threads in /proc, and leaves the main thread's name alone", { skip: process.platform !== "linux" && "reads /proc" }, async () => {
  const mainName = () => threadNames().get(process.pid);
  const before = { main: mainName(), workers: workerThreadNames() };
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME), { checkpoints: { intervalMs: 10 } });
  try {
    // The threads start with the first commit; a commit answered means the commit thread ran its start.
    await thread.commit(errorRecords().records);
    assert.deepEqual(await waitForSqliteThreads(2), ["sqlite-checkpt", "sqlite-commit"]);
    assert.equal(mainName(), before.main);
    assert.deepEqual(before.workers.filter((name) => name.startsWith("sqlite-")), []);
  } finally {
    await thread.close();
  }
});

it("start() runs the commit and checkpoint threads before any commit, once however often it is called, and none once closing", { skip: process.platform !== "linux" && "reads /proc" }, async () => {
  assert.deepEqual(sqliteThreadNames(), []);
  const thread = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME), { checkpoints: { intervalMs: 10 } });
  try {
    thread.start();
    thread.start();
    assert.deepEqual(await waitForSqliteThreads(2), ["sqlite-checkpt", "sqlite-commit"]);
    const { records, eventId } = errorRecords();
    await thread.commit(records);
    assert.deepEqual(await storedIds([eventId]), [eventId]);
    assert.deepEqual(sqliteThreadNames(), ["sqlite-checkpt", "sqlite-commit"]);
  } finally {
    await thread.close();
  }
  const closed = new SqliteCommitThread(path.join(dir, SQLITE_FILE_NAME));
  const closing = closed.close();
  closed.start();
  await closing;
  try {
    assert.deepEqual(await waitForSqliteThreads(1, 2_500), []);
  } finally {
    // Had start() run a thread after close(), nothing else would stop it.
    await closed.crashForTesting();
  }
});
