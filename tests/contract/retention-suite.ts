/**
 * The storage contract for retention (RETENTION_DAYS), called once per engine next to the other
 * suites: telemetry older than the cutoff goes — SQLite in batches, PostgreSQL by dropping day
 * partitions — while issues and their counters stay, and ingest works on afterwards.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import type { IngestRecord, Project, Storage, TransactionPayload } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 12, 30);
const OLD = NOW - 100 * DAY;
const TRACE_OLD = "ab".repeat(16);
const TRACE_NEW = "cd".repeat(16);

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

function event(id: number, at: number): NormalizedEvent {
  return {
    event_id: hex(id, 32), timestamp: at / 1000, received: at / 1000, platform: "node", level: "error", environment: "production",
    tags: [["level", "error"]], contexts: {}, breadcrumbs: [], exception: [{ type: "TypeError", value: "x" }], errors: [],
  };
}

const grouping: GroupingResult = {
  hash: "r".padEnd(32, "0"), strategy: "exception", config: "test:1", title: "TypeError: x", culprit: "app",
  metadata: { type: "TypeError", value: "x" }, eventType: "error",
};

function transaction(id: number, at: number, trace: string): TransactionPayload {
  return {
    type: "transaction", event_id: hex(id, 32), timestamp: at / 1000, start_timestamp: (at - 100) / 1000, received: at / 1000,
    platform: "node", level: "info", environment: "production", transaction: "job", tags: [], breadcrumbs: [], exception: [],
    errors: [], contexts: { trace: { trace_id: trace, span_id: hex(id, 16), op: "task", status: "ok" } }, spans: [], measurements: {},
  };
}

export function retentionContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, retention: ${engine}`, () => {
    let storage: Storage;
    let project: Project;

    beforeEach(async () => {
      storage = await factory.create();
      const organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: null });
    });
    afterEach(async () => factory.destroy(storage));

    const eventRecord = (n: number, at: number): IngestRecord => {
      const e = event(n, at);
      return { kind: "event", projectId: project.id, event: e, payload: JSON.stringify(e), grouping, userKey: null };
    };
    const records = (at: number, first: number, count: number, trace: string): IngestRecord[] => [
      ...Array.from({ length: count }, (_, i) => eventRecord(first + i, at)),
      {
        kind: "transaction", projectId: project.id, transaction: transaction(first, at, trace),
        spans: [{
          traceId: trace, spanId: hex(first, 16), parentSpanId: null, segmentId: hex(first, 16), eventId: hex(first, 32), isSegment: true,
          op: "task", name: "job", status: "ok", start: at - 100, end: at, segmentName: "job", release: null, environment: "production",
          sdkName: null, attributes: {}, measurements: {},
        }],
      },
      { kind: "outcome", projectId: project.id, outcome: "accepted", category: "error", reason: null, quantity: count, timestamp: at },
      {
        kind: "session_update", projectId: project.id, update: {
          sid: hex(first, 32), did: null, seq: 1, init: true, started: at, timestamp: at, status: "exited", errors: 0, duration: 1,
          release: "r@1", environment: "production",
        },
      },
    ];

    it("expires telemetry older than the cutoff, keeps issues and newer telemetry, and ingests on", async () => {
      // More old events than one SQLite delete batch (1,000 rows).
      const [old] = await storage.ingest.commit(records(OLD, 1, 1_200, TRACE_OLD));
      await storage.ingest.commit(records(NOW, 5_000, 2, TRACE_NEW));
      const issueId = (old as { issueId: string }).issueId;

      const result = await storage.retention.expire(NOW - 90 * DAY);
      assert.ok(result.deletedRows + result.droppedPartitions > 0, JSON.stringify(result));

      assert.equal(await storage.events.get(project.id, hex(1, 32)), null);
      assert.equal(await storage.events.get(project.id, hex(1_200, 32)), null);
      assert.equal((await storage.events.get(project.id, hex(5_000, 32)))?.issueId, issueId);
      assert.equal(await storage.transactions.get(project.id, hex(1, 32)), null);
      assert.equal((await storage.transactions.get(project.id, hex(5_000, 32)))?.eventId, hex(5_000, 32));
      assert.deepEqual(await storage.spans.trace([project.id], TRACE_OLD), []);
      assert.equal((await storage.spans.trace([project.id], TRACE_NEW)).length, 1);
      assert.equal(await storage.sessions.get(project.id, hex(1, 32)), null);
      assert.equal((await storage.sessions.get(project.id, hex(5_000, 32)))?.status, "exited");
      assert.deepEqual(await storage.outcomes.totals(project.id, 0), [{ outcome: "accepted", category: "error", reason: null, quantity: 2 }]);
      assert.deepEqual((await storage.issues.getById(issueId))?.count, 1_202);
      assert.deepEqual((await storage.events.listForIssue(issueId, 10)).items.map((e) => e.eventId), [hex(5_001, 32), hex(5_000, 32)]);

      // Nothing left to expire; the expired day can be written again.
      assert.deepEqual(await storage.retention.expire(NOW - 90 * DAY), { deletedRows: 0, droppedPartitions: 0 });
      const [again] = await storage.ingest.commit([eventRecord(9_000, OLD)]);
      assert.deepEqual(again, { kind: "event", issueId, duplicate: false });
      assert.equal((await storage.events.get(project.id, hex(9_000, 32)))?.timestamp, OLD);
    });

    it("expires the spans of every project, more than a delete batch of them, and keeps the newer ones", async () => {
      const other = await storage.projects.create({ organizationId: project.organizationId, slug: "api", name: "API", platform: null });
      const span = (projectId: string, n: number, trace: string, end: number): IngestRecord => ({
        kind: "span", projectId, span: {
          traceId: trace, spanId: hex(n, 16), parentSpanId: null, segmentId: null, eventId: null, isSegment: false, op: "db", name: "query",
          status: "ok", start: end - 10, end, segmentName: null, release: null, environment: null, sdkName: null, attributes: {}, measurements: {},
        },
      });
      // More old spans in one project than one SQLite delete batch (1,000 rows).
      await storage.ingest.commit(Array.from({ length: 1_100 }, (_, i) => span(project.id, i + 1, TRACE_OLD, OLD)));
      await storage.ingest.commit([span(other.id, 1, TRACE_OLD, OLD), span(other.id, 2, TRACE_NEW, NOW), span(project.id, 5_000, TRACE_NEW, NOW)]);

      await storage.retention.expire(NOW - 90 * DAY);

      const left = async (projectId: string, trace: string) => (await storage.spans.trace([projectId], trace)).map((s) => s.spanId);
      assert.deepEqual(
        [await left(project.id, TRACE_OLD), await left(other.id, TRACE_OLD), await left(project.id, TRACE_NEW), await left(other.id, TRACE_NEW)],
        [[], [], [hex(5_000, 16)], [hex(2, 16)]],
      );
    });

    it("expires streamed spans with their container, per project, and keeps newer containers", async () => {
      const other = await storage.projects.create({ organizationId: project.organizationId, slug: "api", name: "API", platform: null });
      const container = (projectId: string, first: number, trace: string, end: number): IngestRecord => ({
        kind: "span_container", projectId, itemCount: 2, receivedAt: end, shift: 0, sdkName: null,
        json: JSON.stringify({
          items: [first, first + 1].map((n) => ({ trace_id: trace, span_id: hex(n, 16), name: "q", start_timestamp: (end - 10) / 1000, end_timestamp: end / 1000 })),
        }),
      });
      await storage.ingest.commit([
        container(project.id, 1, TRACE_OLD, OLD), container(other.id, 1, TRACE_OLD, OLD),
        container(project.id, 10, TRACE_NEW, NOW), container(other.id, 10, TRACE_NEW, NOW),
      ]);

      await storage.retention.expire(NOW - 90 * DAY);

      const left = async (projectId: string, trace: string) => (await storage.spans.trace([projectId], trace)).map((s) => s.spanId);
      assert.deepEqual(
        [await left(project.id, TRACE_OLD), await left(other.id, TRACE_OLD), await left(project.id, TRACE_NEW), await left(other.id, TRACE_NEW)],
        [[], [], [hex(10, 16), hex(11, 16)], [hex(10, 16), hex(11, 16)]],
      );
      assert.deepEqual((await storage.spans.list({ projectIds: [project.id, other.id], limit: 10 })).items.length, 4);
    });

    it("never stores an event twice: one still kept after a mid-day cutoff stays deduplicated", async () => {
      const day = Math.floor(NOW / DAY) * DAY;
      const early = day + 3_600_000;
      await storage.ingest.commit([eventRecord(7_000, early)]);
      // Engines may expire whole days (PostgreSQL) or single rows (SQLite); either way a kept event
      // must be recognised when it is sent again.
      await storage.retention.expire(day + 12 * 3_600_000);
      const kept = (await storage.events.get(project.id, hex(7_000, 32))) !== null;
      const [again] = await storage.ingest.commit([eventRecord(7_000, early)]);
      assert.equal((again as { duplicate: boolean }).duplicate, kept);
      const issueId = (again as { issueId: string }).issueId;
      assert.deepEqual((await storage.events.listForIssue(issueId, 10)).items.map((e) => e.eventId), [hex(7_000, 32)]);
    });
  });
}
