/**
 * The pure parts of the performance views (issue 36): the trace's waterfall rows (tree, orphans,
 * loops, errors on their spans), self time per span operation, description normalising, the
 * transactions list's filter and sort, the histogram's bucket width and the web-vital ratings.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseFilter, parseSort, sortedRows } from "../../components/performance/transaction-table";
import { traceRows } from "../../components/performance/trace-rows";
import type { Project, StoredEvent, StoredSpan } from "../../src/model";
import { histogramWidth, normalizedDescription, ratingOf, spanOpTimes, type TransactionRow } from "../../src/services/telemetry/performance";

const TRACE = "ab".repeat(16);
const project = { id: "1", slug: "web" } as Project;
const other = { id: "2", slug: "api" } as Project;

function span(id: string, parent: string | null, start: number, end: number, overrides: Partial<StoredSpan> = {}): StoredSpan {
  return {
    traceId: TRACE, spanId: id.padStart(16, "0"), parentSpanId: parent === null ? null : parent.padStart(16, "0"), segmentId: null, eventId: null,
    isSegment: parent === null, op: "function", name: `span ${id}`, status: "ok", start, end, segmentName: "/", release: null, environment: null,
    sdkName: null, attributes: {}, measurements: {}, projectId: "1", ...overrides,
  };
}

describe("trace rows", () => {
  it("nests spans depth first across projects, marks orphans and puts errors on their span", () => {
    const spans = [
      span("1", null, 0, 100, { op: "pageload" }),
      span("2", "1", 10, 60, { op: "http.client" }),
      span("3", "2", 20, 50, { op: "http.server", projectId: "2" }),
      span("4", "3", 25, 40, { op: "db.query", projectId: "2" }),
      span("5", "1", 70, 90, { op: "resource.script" }),
      // Its parent was never received.
      span("6", "99", 30, 35, { op: "ui.long-task" }),
    ];
    const error = {
      event: { eventId: "e".repeat(32), issueId: "7", projectId: "2", timestamp: 30, payload: { level: "error", contexts: {} } } as unknown as StoredEvent,
      issue: null, spanId: "4".padStart(16, "0"),
    };
    const rows = traceRows({ traceId: TRACE, spans, errors: [error] }, [project, other]);
    assert.deepEqual(rows.rows.map((row) => [row.op, row.depth, row.orphan, row.descendants, row.projectSlug, row.errors.length]), [
      ["pageload", 0, false, 4, "web", 0],
      ["http.client", 1, false, 2, "web", 0],
      ["http.server", 2, false, 1, "api", 0],
      ["db.query", 3, false, 0, "api", 1],
      ["resource.script", 1, false, 0, "web", 0],
      ["ui.long-task", 0, true, 0, "web", 0],
    ]);
    assert.deepEqual([rows.start, rows.end, rows.projects], [0, 100, ["api", "web"]]);
  });

  it("shows spans whose parents loop as roots instead of losing them", () => {
    const rows = traceRows({ traceId: TRACE, spans: [span("1", "2", 0, 10), span("2", "1", 1, 9)], errors: [] }, [project]);
    assert.equal(rows.rows.length, 2);
    assert.ok(rows.rows.every((row) => row.depth === 0));
  });
});

describe("span operations by self time", () => {
  it("subtracts the union of the children's time, clipped to the parent, and groups normalised descriptions", () => {
    const ops = spanOpTimes([
      span("1", null, 0, 100, { op: "http.server", name: "GET /orders" }),
      // Overlapping children cover 10–60 and 80–120, clipped to 80–100: 70 of the parent’s 100.
      span("2", "1", 10, 50, { op: "db.query", name: "SELECT * FROM orders WHERE id = 42" }),
      span("3", "1", 30, 60, { op: "db.query", name: "SELECT * FROM orders WHERE id = 7" }),
      span("4", "1", 80, 120, { op: "http.client", name: "GET https://pay.example/charge" }),
    ]);
    const byKey = Object.fromEntries(ops.map((op) => [`${op.op} ${op.description}`, [op.count, op.totalSelf, op.averageSelf]]));
    assert.deepEqual(byKey, {
      "http.server GET /orders": [1, 30, 30],
      "db.query SELECT * FROM orders WHERE id = ?": [2, 70, 35],
      "http.client GET https://pay.example/charge": [1, 40, 40],
    });
  });

  it("normalises values, ids and IN lists out of descriptions", () => {
    assert.equal(normalizedDescription("SELECT a FROM t WHERE name = 'bob' AND id IN (1, 2, 3)"), "SELECT a FROM t WHERE name = ? AND id IN (?)");
    assert.equal(normalizedDescription("GET /orders/550e8400-e29b-41d4-a716-446655440000/items/12"), "GET /orders/*/items/?");
  });
});

describe("transactions table", () => {
  const row = (name: string, op: string, count: number, p95: number, failureRate: number): TransactionRow => ({
    projectId: "1", name, op, count, failures: 0, p50: p95 / 2, p75: p95 / 1.5, p95, p99: p95 * 1.2, total: 0, lastSeen: 0, throughput: count / 60, failureRate,
  });
  const rows = [row("/a", "pageload", 10, 300, 0), row("/b", "http.server", 40, 900, 0.1), row("/c", "http.server", 5, 120, 0.5)];

  it("filters by text, a column's value and numeric conditions", () => {
    const apply = (query: string) => {
      const parsed = parseFilter(query);
      assert.ok(parsed.ok);
      return rows.filter((r) => parsed.conditions.every((keep) => keep(r))).map((r) => r.name);
    };
    assert.deepEqual(apply("op:http.server"), ["/b", "/c"]);
    assert.deepEqual(apply("p95:>200"), ["/a", "/b"]);
    assert.deepEqual(apply("failure_rate:>=0.1 count:<10"), ["/c"]);
    assert.deepEqual(apply("/A"), ["/a"]);
    assert.deepEqual(parseFilter("p96:>1"), { ok: false, message: 'Unknown column "p96" in "p96:>1": use one of name, op, count, tpm, p50, p75, p95, p99, failure_rate, last_seen.' });
    assert.equal(parseFilter("p95:fast").ok, false);
  });

  it("sorts by any column either way; an unknown sort is the default", () => {
    assert.deepEqual(sortedRows(rows, parseSort("-p95")).map((r) => r.name), ["/b", "/a", "/c"]);
    assert.deepEqual(sortedRows(rows, parseSort("failure_rate")).map((r) => r.name), ["/a", "/b", "/c"]);
    assert.deepEqual(sortedRows(rows, parseSort("name")).map((r) => r.name), ["/a", "/b", "/c"]);
    assert.deepEqual(parseSort("-nonsense"), { column: "count", descending: true });
  });
});

describe("histogram and vitals", () => {
  it("picks 1, 2 or 5 × 10ⁿ ms buckets that cover the p99", () => {
    assert.equal(histogramWidth(1900, 20), 100);
    assert.equal(histogramWidth(2100, 20), 200);
    assert.equal(histogramWidth(7, 20), 0.5);
    assert.ok(histogramWidth(0, 20) > 0);
  });

  it("rates web vitals with web.dev's thresholds, bounds included in the better band", () => {
    assert.deepEqual([ratingOf("lcp", 2500), ratingOf("lcp", 2501), ratingOf("lcp", 4000), ratingOf("lcp", 4001)], ["good", "needs-improvement", "needs-improvement", "poor"]);
    assert.deepEqual([ratingOf("cls", 0.1), ratingOf("cls", 0.26), ratingOf("inp", 200), ratingOf("inp", 501)], ["good", "poor", "good", "poor"]);
  });
});
