import Database from "better-sqlite3";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { eventItem } from "../../src/items/event";
import { ensureDefaults } from "../../src/services/projects/ensure-defaults";
import { accountsContract } from "../contract/accounts-suite";
import { alertsContract } from "../contract/alerts-suite";
// Metric alerts (issue 34 item 2).
import { metricAlertsContract } from "../contract/metric-alerts-suite";
import { keyControlsContract } from "../contract/key-controls-suite";
import { quotasContract } from "../contract/quotas-suite";
import { privacyContract } from "../contract/privacy-suite";
import { releaseContract } from "../contract/release-suite";
import { issueWorkflowContract } from "../contract/issue-workflow-suite";
import { storageContract, type EngineFactory } from "../contract/suite";
import { retentionContract } from "../contract/retention-suite";
import { spanContract } from "../contract/span-suite";
// Performance (issue 36)
import { performanceContract } from "../contract/performance-suite";
import { logContract } from "../contract/log-suite";
import { attachmentContract } from "../contract/attachment-suite";
import { telemetryContract } from "../contract/telemetry-suite";
import { monitorContract } from "../contract/monitor-suite";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../../src/storage/sqlite";
import type { SqliteTopology } from "../../src/config";
import type { Storage } from "../../src/storage/types";

const dirs = new Map<Storage, string>();

/** Both SQLite topologies (src/config.ts): commits inline on the calling thread, or on the commit thread (the server's default). */
const topologyOf = (commitThread: boolean): SqliteTopology =>
  commitThread ? { engine: "sqlite", commits: "thread", checkpointIntervalMs: null } : { engine: "sqlite", commits: "inline" };

const sqlite = (commitThread: boolean, issueEventsMergeMs?: number): EngineFactory => ({
  async create() {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-sqlite-"));
    const storage = createSqliteStorage(dir, { topology: topologyOf(commitThread), issueEventsMergeMs });
    dirs.set(storage, dir);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    rmSync(dirs.get(storage)!, { recursive: true, force: true });
    dirs.delete(storage);
  },
  storedNul: "\u0000",
});

for (const [name, commitThread] of [["sqlite", false], ["sqlite, commit thread", true]] as const) {
  storageContract(name, sqlite(commitThread));
  telemetryContract(name, sqlite(commitThread));
  spanContract(name, sqlite(commitThread));
  logContract(name, sqlite(commitThread));
  attachmentContract(name, sqlite(commitThread));
  monitorContract(name, sqlite(commitThread));
  performanceContract(name, sqlite(commitThread));
  retentionContract(name, sqlite(commitThread));
  accountsContract(name, sqlite(commitThread));
  releaseContract(name, sqlite(commitThread));
  issueWorkflowContract(name, sqlite(commitThread));
  keyControlsContract(name, sqlite(commitThread));
  quotasContract(name, sqlite(commitThread));
  privacyContract(name, sqlite(commitThread));
  alertsContract(name, sqlite(commitThread));
  metricAlertsContract(name, sqlite(commitThread));
}
// Every commit merges its events into issue_events (issue-events.ts); above, none does within a test.
storageContract("sqlite, issue events merged at once", sqlite(false, 0));
storageContract("sqlite, commit thread, issue events merged at once", sqlite(true, 0));

describe("sqlite: how an event's stored form is kept", () => {
  // The commit deflates: on the commit thread when there is one, else on the thread that processed the event.
  for (const commitThread of [false, true]) it(`deflates a large event into a BLOB and keeps a small one as text (commit thread: ${commitThread})`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-sqlite-"));
    const storage = createSqliteStorage(dir, { topology: topologyOf(commitThread) });
    try {
      const { project } = await ensureDefaults(storage);
      const context = { projectId: project.id, envelopeHeaders: {}, receivedAt: Date.now(), clientIp: "198.51.100.4", userAgent: "curl/8.5.0" };
      const crumbs = Array.from({ length: 100 }, (_, i) => ({ category: "http", message: `GET /api/items/${i}?page=${i}&sort=name&filter=active`, timestamp: Date.now() / 1000 }));
      const recordsOf = (id: string, body: object) =>
        eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify({ event_id: id, ...body })) }, context).records;
      const large = "a".repeat(32);
      const small = "b".repeat(32);
      await storage.ingest.commit([...recordsOf(large, { message: "large", breadcrumbs: crumbs }), ...recordsOf(small, { message: "small" })]);
      const db = new Database(path.join(dir, SQLITE_FILE_NAME), { readonly: true });
      const rows = db.prepare("SELECT event_id, typeof(payload) AS form, length(payload) AS size FROM events ORDER BY event_id").all() as { event_id: string; form: string; size: number }[];
      db.close();
      assert.deepEqual(rows.map(({ event_id, form }) => [event_id, form]), [[large, "blob"], [small, "text"]]);
      assert.ok(rows[0]!.size < 2_000, `${rows[0]!.size} bytes stored`);
      assert.deepEqual((await storage.events.get(project.id, large))?.payload.breadcrumbs?.length, 100);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
