/**
 * The storage contract for logs (issue 38), called once per engine next to the other suites: lines
 * come back as they were given (nanoseconds, typed attributes, trace and span ids), newest first with
 * stable paging, filtered by level, text, attribute, trace and time; retention expires them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LogData, LogLevel, LogsRecord, Project, Storage, StoredLog } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const DAY = 86_400_000;
const TRACE = "ab".repeat(16);

const hex32 = (n: number) => n.toString(16).padStart(32, "0");

function line(n: number, agoMs: number, level: LogLevel, body: string, extra: Partial<LogData> = {}): LogData & { id: string } {
  const ms = NOW - agoMs;
  return {
    id: hex32(n), traceId: null, spanId: null, timestamp: ms + 0.123456, timestampNs: `${BigInt(ms) * 1_000_000n + 123_456n}`, level,
    severityNumber: { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 }[level], body,
    attributes: { "sentry.environment": { value: "production", type: "string" }, n: { value: n, type: "integer" } }, ...extra,
  };
}

const record = (projectId: string, logs: LogsRecord["logs"], received = NOW): LogsRecord => ({ kind: "logs", projectId, received, logs });
const ids = (logs: StoredLog[]) => logs.map((log) => Number.parseInt(log.id, 16));

export function logContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, logs: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    it("gives a line back as it was given, with its project and receive time", async () => {
      const given = line(1, 1_000, "warn", "disk 91% full", {
        traceId: TRACE, spanId: "cd".repeat(8), timestampNs: "1795177799000123456",
        attributes: { ok: { value: true, type: "boolean" }, ratio: { value: 0.25, type: "double" }, tags: { value: ["a", 1], type: "array" } },
      });
      assert.deepEqual(await storage.ingest.commit([record(project.id, [given], NOW + 5)]), [{ kind: "logs" }]);
      const page = await storage.logs.list({ projectIds: [project.id], limit: 10 });
      assert.deepEqual(page, { items: [{ ...given, projectId: project.id, received: NOW + 5 }], nextCursor: null });
      assert.deepEqual((await storage.logs.list({ projectIds: [other.id], limit: 10 })).items, []);
    });

    it("lists newest first across projects, pages without repeats, and filters", async () => {
      const mine = Array.from({ length: 12 }, (_, i) =>
        line(i + 1, (i + 1) * 1_000, i % 3 === 0 ? "error" : "info", i % 4 === 0 ? `Payment FAILED for order ${i}` : `request ${i} ok`,
          i === 5 ? { traceId: TRACE } : {}),
      );
      // Two lines at the same time: the id breaks the tie.
      mine.push({ ...line(100, 4_000, "info", "same time"), timestamp: mine[3]!.timestamp });
      await storage.ingest.commit([record(project.id, mine), record(other.id, [line(200, 2_500, "error", "other project")])]);
      const both = [project.id, other.id];
      const pages: number[][] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 10; guard++) {
        const page = await storage.logs.list({ projectIds: both, limit: 5, ...(cursor ? { cursor } : {}) });
        pages.push(ids(page.items));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      assert.deepEqual(pages, [[1, 2, 200, 3, 100], [4, 5, 6, 7, 8], [9, 10, 11, 12]]);

      const list = async (query: Partial<Parameters<Storage["logs"]["list"]>[0]>) =>
        ids((await storage.logs.list({ projectIds: [project.id], limit: 50, ...query })).items);
      assert.deepEqual(await list({ levels: ["error"] }), [1, 4, 7, 10]);
      assert.deepEqual(await list({ levels: ["error", "warn"] }), [1, 4, 7, 10]);
      assert.deepEqual(await list({ text: ["payment failed"] }), [1, 5, 9]);
      assert.deepEqual(await list({ text: ["100%"] }), []);
      assert.deepEqual(await list({ attributes: [["n", "7"]] }), [7]);
      assert.deepEqual(await list({ attributes: [["sentry.environment", "production"], ["n", "3"]] }), [3]);
      assert.deepEqual(await list({ attributes: [["missing", "x"]] }), []);
      assert.deepEqual(await list({ traceId: TRACE }), [6]);
      assert.deepEqual(await list({ start: NOW - 3_500, end: NOW - 1_500 }), [2, 3]);
      assert.deepEqual(await list({ levels: ["error"], text: ["failed", "payment"] }), [1]);
      // The live tail: only what is newer than the newest line shown.
      const shown = await storage.logs.list({ projectIds: [project.id], limit: 3 });
      await storage.ingest.commit([record(project.id, [line(300, 500, "info", "new"), line(301, 200, "debug", "newer")])]);
      const tail = await storage.logs.list({ projectIds: [project.id], limit: 10, after: cursorOf(shown.items[0]!) });
      assert.deepEqual(ids(tail.items), [301, 300]);
    });

    it("finds text held by many lines, by few old ones and by none, paging the few", async () => {
      // More lines than a text search reads in time order before it turns to an index (PostgreSQL).
      const lines = Array.from({ length: 6_000 }, (_, i) =>
        line(i + 1, (i + 1) * 10, "info", i + 1 === 5_500 || i + 1 === 5_900 || i + 1 === 5_950 ? `request ${i} hit a Rare Needle` : `request ${i} ok`),
      );
      await storage.ingest.commit([record(project.id, lines.slice(0, 3_000)), record(project.id, lines.slice(3_000))]);
      const first = await storage.logs.list({ projectIds: [project.id], limit: 2, text: ["rare needle"] });
      assert.deepEqual(ids(first.items), [5_500, 5_900]);
      assert.ok(first.nextCursor);
      const second = await storage.logs.list({ projectIds: [project.id], limit: 2, text: ["rare needle"], cursor: first.nextCursor });
      assert.deepEqual(second, { items: second.items, nextCursor: null });
      assert.deepEqual(ids(second.items), [5_950]);
      assert.deepEqual(ids((await storage.logs.list({ projectIds: [project.id], limit: 3, text: ["ok"] })).items), [1, 2, 3]);
      assert.deepEqual(ids((await storage.logs.list({ projectIds: [project.id], limit: 3, text: ["request 1"] })).items), [2, 11, 12]);
      assert.deepEqual((await storage.logs.list({ projectIds: [project.id], limit: 3, text: ["no such words"] })).items, []);
      assert.deepEqual(ids((await storage.logs.list({ projectIds: [project.id], limit: 5, text: ["needle", "5949"] })).items), [5_950]);
    });

    it("reads log containers where it writes them: a good one stored, a lying one counted and nothing else lost", async () => {
      const container = (count: number, bodies: string[]) => ({
        kind: "log_container" as const, projectId: project.id, itemCount: count, contentType: "application/vnd.sentry.items.log+json",
        receivedAt: NOW, shift: 0, json: JSON.stringify({ items: bodies.map((body) => ({ timestamp: (NOW - 1_000) / 1000, level: "info", body })) }),
      });
      const lying = container(3, ["lie 1", "lie 2"]);
      const results = await storage.ingest.commit([container(2, ["good 1", "good 2"]), lying, line1Record(project.id)]);
      assert.deepEqual(results, [{ kind: "logs" }, { kind: "logs" }, { kind: "logs" }]);
      const bodies = (await storage.logs.list({ projectIds: [project.id], limit: 10 })).items.map((log) => log.body).sort();
      assert.deepEqual(bodies, ["good 1", "good 2", "plain record"]);
      const totals = await storage.outcomes.totals(project.id, NOW - DAY);
      assert.deepEqual(totals.filter((t) => t.category === "log_item").map((t) => [t.outcome, t.reason, t.quantity]).toSorted(), [
        ["accepted", null, 2], ["invalid", "invalid_log", 3],
      ]);
      assert.deepEqual(totals.filter((t) => t.category === "log_byte" && t.outcome === "invalid").map((t) => t.quantity), [Buffer.byteLength(lying.json)]);
    });

    it("expires lines older than the cutoff, more than a delete batch of them, and keeps newer ones", async () => {
      const old = Array.from({ length: 1_100 }, (_, i) => line(i + 1, 100 * DAY, "info", `old ${i}`));
      await storage.ingest.commit([record(project.id, old, NOW - 100 * DAY), record(other.id, [line(5_000, 1_000, "info", "new")])]);
      await storage.retention.expire(NOW - 90 * DAY);
      assert.deepEqual(ids((await storage.logs.list({ projectIds: [project.id, other.id], limit: 100 })).items), [5_000]);
    });
  });
}

const line1Record = (projectId: string): LogsRecord => record(projectId, [line(77, 3_000, "info", "plain record")]);

/** A cursor at this line, as the list makes them (storage/cursor.ts): [timestamp, id] in base64url JSON. */
function cursorOf(log: StoredLog): string {
  return Buffer.from(JSON.stringify([log.timestamp, log.id])).toString("base64url");
}
