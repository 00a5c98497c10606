/**
 * The storage contract for performance reads (issue 36), called once per engine: the errors captured
 * inside a trace (events whose contexts.trace names it), and the aggregates of segments and web
 * vitals (ADR 0022) over legacy transactions and streamed containers alike. Expected figures are
 * computed here from the durations sent.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import type { IngestRecord, PerfQuery, Project, SpanContainerRecord, SpanData, Storage, TransactionPayload } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const TRACE = "ab".repeat(16);
const OTHER_TRACE = "cd".repeat(16);

function errorEvent(id: number, seconds: number, trace: Record<string, unknown> | null): NormalizedEvent {
  return {
    event_id: id.toString(16).padStart(32, "0"), timestamp: NOW / 1000 + seconds, received: NOW / 1000, platform: "node", level: "error",
    environment: "production", tags: [], contexts: trace ? { trace } : {}, breadcrumbs: [],
    exception: [{ type: "Error", value: `failure ${id}` }], errors: [],
  };
}

const grouping: GroupingResult = {
  hash: "7".repeat(32), strategy: "exception", config: "test:1", title: "Error: failure", culprit: "api in handler",
  metadata: { type: "Error" }, eventType: "error",
};

const hex = (id: number, width: number) => id.toString(16).padStart(width, "0");

/** A legacy transaction event (SDK 8/9 shape) as the item processor makes it: the root span is the segment. */
function legacyTransaction(project: Project, id: number, name: string, end: number, duration: number, status: string, extra: Partial<SpanData> = {}): IngestRecord {
  const traceId = hex(id, 32);
  const payload: TransactionPayload = {
    type: "transaction", event_id: hex(id, 32), timestamp: end / 1000, start_timestamp: (end - duration) / 1000, received: NOW / 1000,
    platform: "node", level: "info", environment: "production", release: "api@1", transaction: name, tags: [], breadcrumbs: [], exception: [],
    errors: [], contexts: { trace: { trace_id: traceId, span_id: hex(id, 16), op: "http.server", status } }, spans: [], measurements: {},
  };
  const root: SpanData = {
    traceId, spanId: hex(id, 16), parentSpanId: null, segmentId: hex(id, 16), eventId: payload.event_id, isSegment: true, op: "http.server",
    name, status, start: end - duration, end, segmentName: name, release: "api@1", environment: "production", sdkName: "sentry.javascript.node",
    attributes: {}, measurements: {}, ...extra,
  };
  return { kind: "transaction", projectId: project.id, transaction: payload, spans: [root] };
}

/** A v2 container (SDK 11 streaming) of one page load segment with a child and web-vital values. */
function streamedPageLoad(project: Project, id: number, page: string, end: number, duration: number, status: string, vitals: Record<string, number>): SpanContainerRecord {
  const attributes: Record<string, { type: string; value: string | number }> = {
    "sentry.op": { type: "string", value: "pageload" }, "sentry.segment.name": { type: "string", value: page },
    "sentry.environment": { type: "string", value: "production" }, "sentry.release": { type: "string", value: "web@1" },
  };
  for (const [vital, value] of Object.entries(vitals)) attributes[`browser.web_vital.${vital}.value`] = { type: "double", value };
  const segment = {
    trace_id: hex(id, 32), span_id: hex(id, 16), name: page, status, is_segment: true,
    start_timestamp: (end - duration) / 1000, end_timestamp: end / 1000, attributes,
  };
  const child = {
    trace_id: hex(id, 32), span_id: hex(id + 0x1000, 16), parent_span_id: hex(id, 16), name: "GET /api", status: "ok", is_segment: false,
    start_timestamp: (end - duration / 2) / 1000, end_timestamp: end / 1000,
    attributes: { "sentry.op": { type: "string", value: "http.client" }, "sentry.segment.name": { type: "string", value: page } },
  };
  return {
    kind: "span_container", projectId: project.id, json: JSON.stringify({ items: [segment, child] }), itemCount: 2, receivedAt: NOW,
    shift: 0, sdkName: "sentry.javascript.browser",
  };
}

/** Linear interpolation between the nearest ranks, written apart from the engines' own. */
function expectedPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const below = sorted[Math.floor(rank)]!;
  const above = sorted[Math.ceil(rank)]!;
  return below + (above - below) * (rank - Math.floor(rank));
}

const close = (actual: number | null | undefined, expected: number, what: string) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6, `${what}: ${actual} vs ${expected}`);

const record = (project: Project, event: NormalizedEvent): IngestRecord => ({
  kind: "event", projectId: project.id, event, payload: JSON.stringify(event), grouping, userKey: null,
});

export function performanceContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, performance: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    it("finds the errors captured inside a trace, in every project asked for, oldest first", async () => {
      await storage.ingest.commit([
        record(project, errorEvent(1, 2, { trace_id: TRACE, span_id: "1".repeat(16) })),
        // Upper case and dashes are the same trace id (some SDKs send a UUID form).
        record(other, errorEvent(2, 1, { trace_id: "AB".repeat(4) + "-" + "ab".repeat(12), span_id: "2".repeat(16) })),
        record(project, errorEvent(3, 0, { trace_id: OTHER_TRACE, span_id: "3".repeat(16) })),
        record(project, errorEvent(4, 0, null)),
        record(project, errorEvent(5, 0, { trace_id: "not a trace" })),
      ]);
      const ids = (events: { eventId: string }[]) => events.map((event) => Number.parseInt(event.eventId, 16));
      assert.deepEqual(ids(await storage.events.ofTrace([project.id, other.id], TRACE, 10)), [2, 1]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id], TRACE, 10)), [1]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id, other.id], TRACE, 1)), [2]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id], OTHER_TRACE, 10)), [3]);
      assert.deepEqual(await storage.events.ofTrace([project.id], "ef".repeat(16), 10), []);
      const [found] = await storage.events.ofTrace([project.id], TRACE, 10);
      assert.equal(found?.payload.contexts.trace?.span_id, "1".repeat(16));
    });

    it("aggregates legacy transactions and streamed segments into the same transaction stats", async () => {
      // Durations (ms) and statuses of "GET /orders": legacy transactions and streamed segments share the name.
      const legacy = [12, 40, 41, 97, 230, 18, 65];
      const streamed = [33, 150, 88];
      const records: IngestRecord[] = legacy.map((duration, i) =>
        legacyTransaction(project, 100 + i, "GET /orders", NOW - 60_000 + i * 1000, duration, i === 2 ? "internal_error" : "ok"));
      streamed.forEach((duration, i) => records.push(streamedPageLoad(project, 200 + i, "GET /orders", NOW - 30_000 + i * 1000, duration, i === 0 ? "deadline_exceeded" : "ok", {})));
      records.push(legacyTransaction(project, 300, "GET /health", NOW - 10_000, 3, "cancelled"));
      // Outside the window, in another project, and a retry of the first: none counts.
      records.push(legacyTransaction(project, 301, "GET /orders", NOW - 3_600_000 * 5, 9999, "ok"));
      records.push(legacyTransaction(other, 302, "GET /orders", NOW - 1000, 9999, "ok"));
      await storage.ingest.commit(records);
      await storage.ingest.commit([legacyTransaction(project, 100, "GET /orders", NOW - 60_000, 12, "ok")]);

      const query: PerfQuery = { projectIds: [project.id], start: NOW - 3_600_000, end: NOW + 1 };
      const stats = (await storage.performance.transactions(query)).sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(stats.map((row) => [row.name, row.count, row.failures]), [["GET /health", 1, 0], ["GET /orders", 10, 2]]);
      const all = [...legacy, ...streamed];
      const orders = stats[1]!;
      for (const [p, value] of [[0.5, orders.p50], [0.75, orders.p75], [0.95, orders.p95], [0.99, orders.p99]] as const) close(value, expectedPercentile(all, p), `p${p * 100}`);
      close(orders.total, all.reduce((a, b) => a + b, 0), "total");
      assert.equal(orders.op, "pageload");
      close(orders.lastSeen, NOW - 30_000 + 2000, "last seen");

      // Filters: environment, release, one name.
      assert.equal((await storage.performance.transactions({ ...query, release: "web@1" }))[0]?.count, 3);
      assert.deepEqual(await storage.performance.transactions({ ...query, environment: "staging" }), []);
      const series = await storage.performance.series({ ...query, name: "GET /orders" }, 60_000);
      // The overview is both reads in one.
      const overview = await storage.performance.overview(query, 60_000);
      assert.deepEqual(overview.stats.sort((a, b) => a.name.localeCompare(b.name)), stats);
      assert.deepEqual(overview.series, await storage.performance.series(query, 60_000));
      assert.equal(series.reduce((sum, point) => sum + point.count, 0), 10);
      assert.equal(series.reduce((sum, point) => sum + point.failures, 0), 2);
      const histogram = await storage.performance.histogram({ ...query, name: "GET /orders" }, 50, 4);
      assert.deepEqual(histogram, [all.filter((d) => d < 50).length, all.filter((d) => d >= 50 && d < 100).length, all.filter((d) => d >= 100 && d < 150).length, all.filter((d) => d >= 150).length]);
      const slowest = await storage.performance.slowest({ ...query, name: "GET /orders" }, 3);
      assert.deepEqual(slowest.map((row) => row.duration), [230, 150, 97]);
      assert.equal(slowest[0]?.eventId, hex(104, 32));
      assert.equal(slowest[1]?.eventId, null);
      assert.deepEqual(await storage.performance.recentTraces({ ...query, name: "GET /orders" }, 2), [hex(202, 32), hex(201, 32)]);
    });

    it("rates web vitals per page at p75 with web.dev's bands", async () => {
      const lcps = [1200, 2500, 2600, 4100, 3900];
      await storage.ingest.commit(lcps.map((lcp, i) => streamedPageLoad(project, 400 + i, "/checkout", NOW - 1000 * (i + 1), 500, "ok", { lcp, cls: i * 0.1 })));
      const vitals = await storage.performance.vitals({ projectIds: [project.id], start: NOW - 3_600_000, end: NOW + 1 });
      const lcp = vitals.find((row) => row.vital === "lcp" && row.page === "/checkout");
      assert.deepEqual([lcp?.count, lcp?.good, lcp?.needsImprovement, lcp?.poor], [5, 2, 2, 1]);
      close(lcp?.p75, expectedPercentile(lcps, 0.75), "lcp p75");
      const cls = vitals.find((row) => row.vital === "cls");
      // 0, 0.1 good; 0.2 needs improvement; 0.3, 0.4 poor (0.1 + 0.2 in floating point is not the point here).
      assert.deepEqual([cls?.good, cls?.needsImprovement, cls?.poor], [2, 1, 2]);
      const trend = await storage.performance.vitalSeries({ projectIds: [project.id], start: NOW - 3_600_000, end: NOW + 1 }, 3_600_000);
      const overview = await storage.performance.vitalsOverview({ projectIds: [project.id], start: NOW - 3_600_000, end: NOW + 1 }, 3_600_000);
      const byKey = (rows: { vital: string; page: string }[]) => [...rows].sort((a, b) => `${a.vital}${a.page}`.localeCompare(`${b.vital}${b.page}`));
      assert.deepEqual(byKey(overview.stats), byKey(vitals));
      assert.deepEqual(overview.series.map((p) => [p.vital, p.count, p.p75]).sort(), trend.map((p) => [p.vital, p.count, p.p75]).sort());
      assert.deepEqual(trend.filter((point) => point.vital === "lcp").map((point) => point.count), [5]);
    });

    it("answers long windows at volume within 1 % on percentiles, exact on counts (ADR 0022 rollups)", async () => {
      // 24,000 segments over the 6.5 hours before NOW (22,154 in its 6 full hours, the rollups' threshold
      // being 20,000), three names, an LCP each.
      const TOTAL = 24_000;
      const names = ["GET /a", "GET /b", "GET /c"];
      const specs = Array.from({ length: TOTAL }, (_, i) => ({
        id: 10_000 + i, name: names[i % 3]!, end: NOW - 6.5 * 3_600_000 + Math.floor((i * 6.5 * 3_600_000) / TOTAL), duration: 1 + ((i * 7919) % 9973) / 4,
        failed: i % 13 === 0, lcp: 300 + ((i * 31) % 5000),
      }));
      const records = specs.map((s) => legacyTransaction(project, s.id, s.name, s.end, s.duration, s.failed ? "internal_error" : "ok", { measurements: { lcp: s.lcp } }));
      for (let i = 0; i < records.length; i += 2000) await storage.ingest.commit(records.slice(i, i + 2000));
      // A retry of a batch counts nothing again.
      await storage.ingest.commit(records.slice(0, 2000));

      const query: PerfQuery = { projectIds: [project.id], start: NOW - 24 * 3_600_000 + 1234, end: NOW + 1 };
      const within = (actual: number | null | undefined, expected: number, what: string) =>
        assert.ok(actual !== undefined && actual !== null && Math.abs(actual - expected) <= 0.01 * expected + 1e-9, `${what}: ${actual} vs ${expected}`);
      const { stats, series, approximate } = await storage.performance.overview(query, 3_600_000);
      assert.equal(approximate, true);
      assert.deepEqual(stats.map((row) => row.name).sort(), names);
      for (const row of stats) {
        const mine = specs.filter((s) => s.name === row.name);
        const durations = mine.map((s) => s.duration);
        assert.equal(row.count, mine.length, row.name);
        assert.equal(row.failures, mine.filter((s) => s.failed).length, row.name);
        assert.ok(Math.abs(row.total - durations.reduce((a, b) => a + b, 0)) < 1e-6 * row.total, `${row.name} total`);
        assert.equal(row.lastSeen, Math.max(...mine.map((s) => s.end)));
        assert.equal(row.op, "http.server");
        for (const [p, value] of [[0.5, row.p50], [0.75, row.p75], [0.95, row.p95], [0.99, row.p99]] as const) within(value, expectedPercentile(durations, p), `${row.name} p${p * 100}`);
      }
      assert.equal(series.reduce((sum, point) => sum + point.count, 0), TOTAL);
      assert.equal(series.reduce((sum, point) => sum + point.failures, 0), specs.filter((s) => s.failed).length);
      const last = series.at(-1)!;
      within(last.p95, expectedPercentile(specs.filter((s) => s.end >= last.slot).map((s) => s.duration), 0.95), "last slot p95");
      const one = await storage.performance.overview({ ...query, name: "GET /b" }, 3_600_000);
      assert.deepEqual(one.stats.map((row) => [row.name, row.count]), [["GET /b", specs.filter((s) => s.name === "GET /b").length]]);
      assert.deepEqual((await storage.performance.overview({ ...query, environment: "staging" }, 3_600_000)).stats, []);

      // A short window (no full hour of 20,000) stays exact.
      const lastHour = await storage.performance.overview({ ...query, start: NOW - 3_600_000 }, 60_000);
      assert.equal(lastHour.approximate, false);
      const recent = specs.filter((s) => s.end >= NOW - 3_600_000 && s.name === "GET /a").map((s) => s.duration);
      close(lastHour.stats.find((row) => row.name === "GET /a")?.p95, expectedPercentile(recent, 0.95), "last hour p95");

      const vitals = await storage.performance.vitalsOverview(query, 3_600_000);
      assert.equal(vitals.approximate, true);
      for (const name of names) {
        const lcps = specs.filter((s) => s.name === name).map((s) => s.lcp);
        const row = vitals.stats.find((stat) => stat.vital === "lcp" && stat.page === name);
        assert.deepEqual([row?.count, row?.good, row?.poor], [lcps.length, lcps.filter((v) => v <= 2500).length, lcps.filter((v) => v > 4000).length], name);
        within(row?.p75, expectedPercentile(lcps, 0.75), `${name} lcp p75`);
      }
      assert.equal(vitals.series.reduce((sum, point) => sum + point.count, 0), TOTAL);
    });

    it("finds the issues of errors captured in given traces", async () => {
      await storage.ingest.commit([
        record(project, errorEvent(1, 0, { trace_id: TRACE })),
        record(project, errorEvent(2, 1, { trace_id: TRACE })),
        record(project, errorEvent(3, 2, { trace_id: OTHER_TRACE })),
      ]);
      const issues = await storage.events.issuesOfTraces([project.id], [TRACE, "ef".repeat(16)]);
      assert.deepEqual(issues.map((issue) => issue.events), [2]);
      assert.deepEqual(await storage.events.issuesOfTraces([other.id], [TRACE]), []);
    });
  });
}
