import Database from "better-sqlite3";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../../src/storage/sqlite";
import { openDatabase } from "../../src/storage/sqlite/db";
import type { IngestRecord, Project } from "../../src/model";
import type { Storage } from "../../src/storage/types";

const NOW = Date.UTC(2026, 10, 25, 12, 0);
const grouping: GroupingResult = {
  hash: "a".repeat(32), strategy: "exception", config: "test:1", title: "TypeError: x", culprit: "app",
  metadata: { type: "TypeError", value: "x" }, eventType: "error",
};

/** Event `n` of the one issue, `n` seconds after NOW. */
function eventRecord(project: Project, n: number): IngestRecord {
  const event: NormalizedEvent = {
    event_id: n.toString(16).padStart(32, "0"), timestamp: NOW / 1000 + n, received: NOW / 1000, platform: "node", level: "error",
    environment: "production", tags: [], contexts: {}, breadcrumbs: [], exception: [{ type: "TypeError", value: "x" }], errors: [],
  };
  return { kind: "event", projectId: project.id, event, payload: JSON.stringify(event), grouping, userKey: null };
}
const idOf = (n: number) => n.toString(16).padStart(32, "0");

describe("sqlite: an issue's events, merged into issue_events in bulk", () => {
  let dir: string;
  let merging: Storage;
  let deferring: Storage;
  let project: Project;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "periscope-issue-events-"));
    // Two connections to one file: one merges in every commit, the other never.
    merging = createSqliteStorage(dir, { issueEventsMergeMs: 0 });
    deferring = createSqliteStorage(dir, { issueEventsMergeMs: Infinity });
    const organization = await merging.organizations.create({ slug: "acme", name: "Acme" });
    project = await merging.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "node" });
  });
  afterEach(async () => {
    await merging.close();
    await deferring.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const table = () => {
    const db = new Database(path.join(dir, SQLITE_FILE_NAME), { readonly: true });
    try {
      return {
        merged: (db.prepare("SELECT event_id FROM issue_events ORDER BY timestamp").pluck().all() as string[]),
        through: db.prepare("SELECT through FROM issue_events_merged").pluck().get() as number,
        stamps: db.prepare("SELECT committed FROM events ORDER BY rowid").pluck().all() as number[],
      };
    } finally {
      db.close();
    }
  };

  it("lists events merged and not merged yet together, in order, page by page", async () => {
    await deferring.ingest.commit([1, 4].map((n) => eventRecord(project, n)));
    const [first] = await merging.ingest.commit([2, 5].map((n) => eventRecord(project, n)));
    await deferring.ingest.commit([3, 6].map((n) => eventRecord(project, n)));
    const after = table();
    // The merging commit took the events committed before it too; the mark is its stamp.
    assert.deepEqual(after.merged, [1, 2, 4, 5].map(idOf));
    assert.equal(after.through, after.stamps[3]);
    assert.ok(after.stamps[0]! < after.stamps[2]! && after.stamps[2]! < after.stamps[4]!, `stamps grow per commit: ${after.stamps.join(", ")}`);

    const issueId = (first as { issueId: string }).issueId;
    for (const storage of [merging, deferring]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await storage.events.listForIssue(issueId, 2, cursor);
        seen.push(...page.items.map((e) => e.eventId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, [6, 5, 4, 3, 2, 1].map(idOf));
      assert.equal((await storage.events.latestForIssue(issueId))!.eventId, idOf(6));
      assert.equal((await storage.events.oldestForIssue(issueId))!.eventId, idOf(1));
      // 4 is merged, its neighbours are not; 3 is not merged, its neighbours are.
      assert.deepEqual(await storage.events.neighbours(issueId, idOf(4)), { previousEventId: idOf(3), nextEventId: idOf(5) });
      assert.deepEqual(await storage.events.neighbours(issueId, idOf(3)), { previousEventId: idOf(2), nextEventId: idOf(4) });
      assert.deepEqual(await storage.events.neighbours(issueId, idOf(6)), { previousEventId: idOf(5), nextEventId: null });
    }

    // A retry of a merged event and of one not merged: stored once, listed once.
    const retried = await deferring.ingest.commit([eventRecord(project, 2), eventRecord(project, 6)]);
    assert.deepEqual(retried.map((r) => (r as { duplicate: boolean }).duplicate), [true, true]);
    await merging.ingest.commit([eventRecord(project, 7)]);
    assert.deepEqual(table().merged, [1, 2, 3, 4, 5, 6, 7].map(idOf));
    assert.deepEqual((await deferring.events.listForIssue(issueId, 10)).items.map((e) => e.eventId), [7, 6, 5, 4, 3, 2, 1].map(idOf));
  });

  it("gives every commit a stamp above the file's, whatever the connection remembers", async () => {
    await deferring.ingest.commit([eventRecord(project, 1)]);
    await merging.ingest.commit([eventRecord(project, 2)]);
    await deferring.ingest.commit([eventRecord(project, 3)]);
    await merging.ingest.commit([eventRecord(project, 4)]);
    const { stamps, through } = table();
    assert.deepEqual([...stamps].sort((a, b) => a - b), stamps);
    assert.equal(new Set(stamps).size, 4);
    assert.equal(through, stamps[3]);
  });

  it("drops an event's entry when retention deletes the event", async () => {
    await merging.ingest.commit([1, 2].map((n) => eventRecord(project, n)));
    assert.deepEqual(table().merged, [1, 2].map(idOf));
    await merging.retention.expire(Date.now() + 60_000);
    assert.deepEqual(table().merged, []);
  });
});

describe("sqlite: migration 0007 on a database with events", () => {
  it("puts the events stored before it into issue_events, and lists them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-issue-events-"));
    try {
      const file = path.join(dir, SQLITE_FILE_NAME);
      const migrations = path.join(import.meta.dirname, "..", "..", "src", "storage", "migrations", "sqlite");
      const before = new Database(file);
      before.exec("CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
      for (const name of readdirSync(migrations).filter((n) => n.endsWith(".sql") && n < "0007").sort()) {
        before.exec(readFileSync(path.join(migrations, name), "utf8"));
        before.prepare("INSERT INTO schema_migrations VALUES (?, 0)").run(name);
      }
      before.exec(`INSERT INTO organizations (id, slug, name, date_created) VALUES (1, 'acme', 'Acme', 0);
        INSERT INTO projects (id, organization_id, slug, name, platform, date_created) VALUES (1, 1, 'web', 'Web', 'node', 0);
        INSERT INTO issues (id, project_id, grouping_config, hash, grouping_strategy, seq, title, culprit, level, type, metadata, first_seen, last_seen)
          VALUES (7, 1, 'test:1', 'h', 'exception', 1, 't', 'c', 'error', 'error', '{}', 0, 0);`);
      const insert = before.prepare("INSERT INTO events (project_id, event_id, issue_id, grouping_hash, timestamp, received, payload) VALUES (1, ?, 7, 'h', ?, 0, ?)");
      for (const n of [1, 2]) insert.run(idOf(n), NOW + n, JSON.stringify({ event_id: idOf(n), timestamp: (NOW + n) / 1000 }));
      before.close();

      openDatabase(file).close();
      const storage = createSqliteStorage(dir, { issueEventsMergeMs: Infinity });
      try {
        assert.deepEqual((await storage.events.listForIssue("7", 10)).items.map((e) => e.eventId), [2, 1].map(idOf));
      } finally {
        await storage.close();
      }
      const after = new Database(file, { readonly: true });
      assert.deepEqual(after.prepare("SELECT issue_id, timestamp, event_id, project_id FROM issue_events").all(), [
        { issue_id: 7, timestamp: NOW + 1, event_id: idOf(1), project_id: 1 },
        { issue_id: 7, timestamp: NOW + 2, event_id: idOf(2), project_id: 1 },
      ]);
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
