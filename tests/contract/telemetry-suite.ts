/**
 * The storage contract for telemetry beyond error events — sessions, transactions, spans and the
 * hourly outcome counters — called once per engine next to `storageContract` (suite.ts), with a
 * fresh storage per test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "../../src/errors";
import type { IngestRecord, Project, SessionStatsRow, SessionUpdate, SpanData, Storage, TransactionPayload } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 20, 12, 30);
const DAY_START = Date.UTC(2026, 10, 20);
const TRACE = "ab".repeat(16);

function update(sid: number, overrides: Partial<SessionUpdate> = {}): SessionUpdate {
  return {
    sid: sid.toString(16).padStart(32, "0"), did: null, seq: 1, init: true, started: NOW, timestamp: NOW, status: "ok",
    errors: 0, duration: null, release: "web@1.0.0", environment: "production", ...overrides,
  };
}

function span(id: number, overrides: Partial<SpanData> = {}): SpanData {
  return {
    traceId: TRACE, spanId: id.toString(16).padStart(16, "0"), parentSpanId: null, segmentId: null, eventId: null,
    isSegment: false, op: "http.client", name: `GET /${id}`, status: "ok", start: NOW + id, end: NOW + id + 10.5,
    segmentName: "/checkout", release: "web@1.0.0", environment: "production", sdkName: "sentry.javascript.browser",
    attributes: { "http.method": "GET" }, measurements: {}, ...overrides,
  };
}

function transaction(id: number, end: number, overrides: Partial<TransactionPayload> = {}): TransactionPayload {
  return {
    type: "transaction", event_id: id.toString(16).padStart(32, "0"), timestamp: end / 1000, start_timestamp: (end - 250) / 1000,
    received: NOW / 1000, platform: "node", level: "info", environment: "production", release: "api@2.0.0",
    transaction: "checkout", tags: [["level", "info"]], breadcrumbs: [], exception: [], errors: [],
    contexts: { trace: { trace_id: TRACE, span_id: id.toString(16).padStart(16, "0"), op: "task", status: "ok" } },
    spans: [], measurements: { lcp: { value: 1234.5, unit: "millisecond" } }, ...overrides,
  };
}

export function telemetryContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, telemetry: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    const sessionRecord = (u: SessionUpdate, p = project): IngestRecord => ({ kind: "session_update", projectId: p.id, update: u });
    const totals = async (groupBy: ("project" | "release" | "environment")[] = [], filters: { releases?: string[]; environments?: string[] } = {}) =>
      (await storage.sessions.stats({ projectIds: [project.id, other.id], start: DAY_START, end: DAY_START + 24 * HOUR, interval: HOUR, groupBy, ...filters }))
        .filter((row) => row.slot === null);

    it("keeps the latest state of a session and moves it between healths as updates arrive", async () => {
      const results = await storage.ingest.commit([sessionRecord(update(1, { did: "u1" }))]);
      assert.deepEqual(results, [{ kind: "session_update" }]);
      assert.deepEqual(await totals(), [{ slot: null, health: "healthy", sessions: 1, users: 1 }]);

      // One batch: an error, then the end; and a late, older update that must not win.
      await storage.ingest.commit([
        sessionRecord(update(1, { did: "u1", seq: 2, init: false, errors: 1, timestamp: NOW + 1000 })),
        sessionRecord(update(1, { did: "u1", seq: 3, init: false, errors: 1, status: "exited", duration: 12.5, timestamp: NOW + 2000 })),
        sessionRecord(update(1, { did: "u1", seq: 0, init: false, timestamp: NOW - 1000 })),
      ]);
      assert.deepEqual(await storage.sessions.get(project.id, update(1).sid), update(1, {
        did: "u1", seq: 3, init: true, errors: 1, status: "exited", duration: 12.5, timestamp: NOW + 2000,
      }));
      assert.deepEqual(await totals(), [{ slot: null, health: "errored", sessions: 1, users: 1 }]);
      assert.equal(await storage.sessions.get(project.id, update(2).sid), null);
      assert.equal(await storage.sessions.get(other.id, update(1).sid), null);
    });

    it("counts a session only once its init update arrived, even when that update comes last", async () => {
      await storage.ingest.commit([sessionRecord(update(5, { seq: 2, init: false, status: "crashed" }))]);
      assert.deepEqual(await totals(), []);
      await storage.ingest.commit([sessionRecord(update(5, { seq: 1, init: true }))]);
      assert.deepEqual(await totals(), [{ slot: null, health: "crashed", sessions: 1, users: 0 }]);
      assert.deepEqual((await storage.sessions.get(project.id, update(5).sid))?.status, "crashed");
    });

    it("adds aggregates and counts each user once, in the most severe health reached", async () => {
      await storage.ingest.commit([
        { kind: "session_aggregate", projectId: project.id, aggregate: {
          started: NOW, did: "u1", exited: 5, errored: 2, abnormal: 0, unhandled: 1, crashed: 0, release: "web@1.0.0", environment: null,
        } },
        { kind: "session_aggregate", projectId: project.id, aggregate: {
          started: NOW - 2 * HOUR, did: "u2", exited: 3, errored: 0, abnormal: 0, unhandled: 0, crashed: 0, release: "web@1.0.0", environment: null,
        } },
        sessionRecord(update(7, { did: "u1", status: "crashed", environment: "staging" })),
        sessionRecord(update(8, { release: "web@2.0.0", environment: "staging" }), other),
      ]);
      const byHealth = (rows: SessionStatsRow[]) => rows.toSorted((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      assert.deepEqual(byHealth(await totals()), byHealth([
        { slot: null, health: "healthy", sessions: 9, users: 1 },
        { slot: null, health: "errored", sessions: 2, users: 0 },
        { slot: null, health: "unhandled", sessions: 1, users: 0 },
        { slot: null, health: "crashed", sessions: 1, users: 1 },
      ]));
      assert.deepEqual(byHealth(await totals(["project", "environment"], { releases: ["web@1.0.0"] })), byHealth([
        { project: project.id, environment: null, slot: null, health: "healthy", sessions: 8, users: 1 },
        { project: project.id, environment: null, slot: null, health: "errored", sessions: 2, users: 0 },
        { project: project.id, environment: null, slot: null, health: "unhandled", sessions: 1, users: 1 },
        { project: project.id, environment: "staging", slot: null, health: "crashed", sessions: 1, users: 1 },
      ]));
      assert.deepEqual(await totals(["release"], { environments: ["staging"], releases: ["web@2.0.0"] }), [
        { release: "web@2.0.0", slot: null, health: "healthy", sessions: 1, users: 0 },
      ]);
      const series = await storage.sessions.stats({
        projectIds: [project.id], start: DAY_START + 10 * HOUR, end: DAY_START + 14 * HOUR, interval: 2 * HOUR, groupBy: [], environments: ["staging"],
      });
      assert.deepEqual(series, [
        { slot: null, health: "crashed", sessions: 1, users: 1 },
        { slot: 1, health: "crashed", sessions: 1, users: 1 },
      ]);
      assert.deepEqual(await storage.sessions.stats({ projectIds: [project.id], start: NOW + HOUR, end: NOW + 2 * HOUR, interval: HOUR, groupBy: [] }), []);
      assert.deepEqual(await storage.sessions.stats({ projectIds: [], start: DAY_START, end: NOW + HOUR, interval: HOUR, groupBy: [] }), []);
    });

    // Release health (issue 37): one session's updates in any order, duplicated, give one result.
    it("merges one session's updates the same way in every arrival order, with duplicates", async () => {
      const steps = [
        update(20, { did: "u9", seq: 1, init: true }),
        update(20, { did: "u9", seq: 2, init: false, errors: 2, timestamp: NOW + 1000 }),
        update(20, { did: "u9", seq: 3, init: false, errors: 3, status: "crashed", timestamp: NOW + 2000 }),
        update(20, { did: "u9", seq: 4, init: false, errors: 1, status: "exited", duration: 9, timestamp: NOW + 3000 }),
      ];
      const orders = [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1, 3, 0], [1, 3, 0, 2, 2]];
      for (const [index, order] of orders.entries()) {
        const sid = (100 + index).toString(16).padStart(32, "0");
        // Each update its own commit (as from separate requests), so the stored state is merged each time.
        for (const step of order) await storage.ingest.commit([sessionRecord({ ...steps[step]!, sid })]);
        const state = await storage.sessions.get(project.id, sid);
        assert.equal(state?.status, "crashed", `order ${order.join(",")}`);
        assert.equal(state?.errors, 3);
        assert.equal(state?.init, true);
        assert.equal(state?.seq, 4);
        assert.equal(state?.duration, 9);
      }
      assert.deepEqual(await totals(), [{ slot: null, health: "crashed", sessions: orders.length, users: 1 }]);
    });

    it("gives the same figures for single updates and for aggregates of the same traffic", async () => {
      // Per user: [exited, errored, crashed, unhandled] sessions.
      const traffic: Record<string, [number, number, number, number]> = { a: [3, 1, 0, 0], b: [1, 0, 1, 0], c: [0, 2, 0, 1] };
      const single: IngestRecord[] = [];
      const aggregates: IngestRecord[] = [];
      let sid = 1000;
      for (const [did, [exited, errored, crashed, unhandled]] of Object.entries(traffic)) {
        const add = (n: number, last: Partial<SessionUpdate>) => {
          for (let i = 0; i < n; i += 1) {
            sid += 1;
            single.push(sessionRecord(update(sid, { did, release: "single@1" })));
            single.push(sessionRecord(update(sid, { did, release: "single@1", seq: 2, init: false, ...last })));
          }
        };
        add(exited, { status: "exited" });
        add(errored, { status: "exited", errors: 1 });
        add(crashed, { status: "crashed", errors: 1 });
        add(unhandled, { status: "unhandled", errors: 1 });
        aggregates.push({ kind: "session_aggregate", projectId: project.id, aggregate: {
          started: NOW, did, exited, errored, abnormal: 0, unhandled, crashed, release: "aggregate@1", environment: "production",
        } });
      }
      await storage.ingest.commit(single);
      await storage.ingest.commit(aggregates);
      const byRelease = await totals(["release"]);
      const of = (release: string) => byRelease.filter((row) => row.release === release).map(({ release: _r, ...rest }) => rest)
        .toSorted((a, b) => a.health.localeCompare(b.health));
      assert.deepEqual(of("single@1"), of("aggregate@1"));
      assert.deepEqual(of("single@1"), [
        { slot: null, health: "crashed", sessions: 1, users: 1 },
        { slot: null, health: "errored", sessions: 3, users: 1 },
        { slot: null, health: "healthy", sessions: 4, users: 0 },
        { slot: null, health: "unhandled", sessions: 1, users: 1 },
      ]);
    });

    it("puts sessions in whole intervals longer than an hour", async () => {
      await storage.ingest.commit([sessionRecord(update(300, { did: "u1" }))]);
      // NOW is 12:30 on DAY_START's day: day 2 of a window that starts two days before.
      const rows = await storage.sessions.stats({ projectIds: [project.id], start: DAY_START - 2 * 24 * HOUR, end: DAY_START + 24 * HOUR, interval: 24 * HOUR, groupBy: [] });
      assert.deepEqual(rows.filter((row) => row.slot !== null), [{ slot: 2, health: "healthy", sessions: 1, users: 1 }]);
      const sixHours = await storage.sessions.stats({ projectIds: [project.id], start: DAY_START, end: DAY_START + 24 * HOUR, interval: 6 * HOUR, groupBy: ["release"] });
      assert.deepEqual(sixHours.filter((row) => row.slot !== null), [{ release: "web@1.0.0", slot: 2, health: "healthy", sessions: 1, users: 1 }]);
    });

    it("gives duration quantiles of exited sessions per project and release", async () => {
      const durations = [4, 1, 3, 2, 10];
      await storage.ingest.commit([
        ...durations.map((duration, index) => sessionRecord(update(200 + index, { status: "exited", duration }))),
        sessionRecord(update(210, { status: "crashed", duration: 1000 })),
        sessionRecord(update(211, { status: "exited", duration: 7, init: false })),
        sessionRecord(update(212, { status: "exited", duration: 50, release: "web@2.0.0" }), other),
      ]);
      const rows = await storage.sessions.durations({ projectIds: [project.id, other.id], start: DAY_START, end: DAY_START + 24 * HOUR });
      const sorted = rows.toSorted((a, b) => a.release.localeCompare(b.release));
      // Sorted 1,2,3,4,10: p50 the middle one; p90 at rank 3.6 = 4 + 0.6 × (10 − 4).
      assert.equal(sorted.length, 2);
      assert.deepEqual({ ...sorted[0], p90: Math.round(sorted[0]!.p90 * 1000) / 1000 }, { project: project.id, release: "web@1.0.0", sessions: 5, p50: 3, p90: 7.6 });
      assert.deepEqual(sorted[1], { project: other.id, release: "web@2.0.0", sessions: 1, p50: 50, p90: 50 });
      assert.deepEqual(await storage.sessions.durations({ projectIds: [project.id], start: DAY_START, end: DAY_START + 24 * HOUR, environments: ["staging"] }), []);
    });

    it("stores a transaction with its spans once, and finds it by id, in lists and in its trace", async () => {
      const payload = transaction(1, NOW);
      const root = span(1, { isSegment: true, eventId: payload.event_id, op: "task", name: "checkout", segmentId: span(1).spanId });
      const child = span(2, { parentSpanId: root.spanId, eventId: payload.event_id, segmentId: root.spanId, start: NOW - 100 });
      const record: IngestRecord = { kind: "transaction", projectId: project.id, transaction: payload, spans: [root, child] };
      assert.deepEqual(await storage.ingest.commit([record]), [{ kind: "transaction", duplicate: false }]);
      assert.deepEqual(await storage.ingest.commit([{ ...record, spans: [root, child, span(3)] }]), [{ kind: "transaction", duplicate: true }]);

      assert.deepEqual(await storage.transactions.get(project.id, payload.event_id), {
        eventId: payload.event_id, projectId: project.id, traceId: TRACE, spanId: "0000000000000001", name: "checkout", op: "task",
        status: "ok", start: NOW - 250, end: NOW, received: NOW, release: "api@2.0.0", environment: "production", payload,
      });
      assert.equal(await storage.transactions.get(other.id, payload.event_id), null);
      assert.deepEqual(await storage.spans.trace([project.id], TRACE), [
        { ...child, projectId: project.id },
        { ...root, projectId: project.id },
      ]);
      assert.deepEqual((await storage.spans.list({ projectIds: [project.id], limit: 10, isSegment: true })).items, [{ ...root, projectId: project.id }]);
      assert.deepEqual(await storage.spans.trace([other.id], TRACE), []);
      assert.deepEqual(await storage.spans.trace([project.id], "cd".repeat(16)), []);
    });

    it("stores standalone spans and lists segments or spans newest first", async () => {
      const segment = span(10, { isSegment: true, op: "pageload", name: "/checkout", end: NOW + 50_000 });
      await storage.ingest.commit([
        { kind: "span", projectId: project.id, span: span(11, { parentSpanId: segment.spanId, segmentId: segment.spanId }) },
        { kind: "span", projectId: project.id, span: segment },
        { kind: "span", projectId: project.id, span: span(12, { traceId: "cd".repeat(16), op: "ui.webvital.cls", measurements: { cls: 0.07 } }) },
        { kind: "span", projectId: other.id, span: span(13) },
      ]);
      const ids = (page: { items: { spanId: string }[] }) => page.items.map((s) => Number.parseInt(s.spanId, 16));
      assert.deepEqual(ids(await storage.spans.list({ projectIds: [project.id], limit: 10 })), [10, 12, 11]);
      assert.deepEqual(ids(await storage.spans.list({ projectIds: [project.id], limit: 10, isSegment: true })), [10]);
      assert.deepEqual(ids(await storage.spans.list({ projectIds: [project.id], limit: 10, isSegment: false, traceId: TRACE })), [11]);
      assert.deepEqual(ids(await storage.spans.list({ projectIds: [project.id, other.id], limit: 10, op: "http.client", segmentName: "/checkout" })), [13, 11]);
      const first = await storage.spans.list({ projectIds: [project.id], limit: 2 });
      const second = await storage.spans.list({ projectIds: [project.id], limit: 2, cursor: first.nextCursor! });
      assert.deepEqual([ids(first), ids(second), second.nextCursor], [[10, 12], [11], null]);
      await assert.rejects(storage.spans.list({ projectIds: [project.id], limit: 2, cursor: "garbage" }), AppError);
      assert.deepEqual((await storage.spans.list({ projectIds: [project.id], limit: 1, op: "ui.webvital.cls" })).items, [
        { ...span(12, { traceId: "cd".repeat(16), op: "ui.webvital.cls", measurements: { cls: 0.07 } }), projectId: project.id },
      ]);
    });

    it("reads outcome counters per project and hour inside a window", async () => {
      const outcome = (p: Project, timestamp: number, reason: string | null): IngestRecord => ({
        kind: "outcome", projectId: p.id, outcome: "client_discard", category: "error", reason, quantity: 2, timestamp,
      });
      await storage.ingest.commit([outcome(project, NOW, "before_send"), outcome(project, NOW + 60_000, "before_send"), outcome(other, NOW - HOUR, null)]);
      await storage.ingest.commit([outcome(project, NOW + 2 * HOUR, "sample_rate")]);
      const hour = DAY_START + 12 * HOUR;
      assert.deepEqual(await storage.outcomes.hourly({ projectIds: [project.id, other.id], start: hour - HOUR, end: hour + HOUR }), [
        { projectId: other.id, hour: hour - HOUR, outcome: "client_discard", category: "error", reason: null, quantity: 2 },
        { projectId: project.id, hour, outcome: "client_discard", category: "error", reason: "before_send", quantity: 4 },
      ]);
      assert.deepEqual(await storage.outcomes.hourly({ projectIds: [other.id], start: hour, end: hour + 3 * HOUR }), []);
    });
  });
}
