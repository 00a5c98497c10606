import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPAN_GROUP_MAX_SPREAD_MS, spanGroupsOf } from "../../src/storage/sqlite/span-groups";
import type { ReadIngestRecord, SpanData } from "../../src/model";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const TRACE_A = "aa".repeat(16);
const TRACE_B = "bb".repeat(16);

function span(id: number, traceId: string, end: number, overrides: Partial<SpanData> = {}): SpanData {
  return {
    traceId, spanId: id.toString(16).padStart(16, "0"), parentSpanId: null, segmentId: null, eventId: null, isSegment: false,
    op: "db", name: `q${id}`, status: "ok", start: end - 5, end, segmentName: null, release: null, environment: null,
    sdkName: null, attributes: { "db.system": "sqlite" }, measurements: {}, ...overrides,
  };
}

const spanRecord = (s: SpanData): ReadIngestRecord => ({ kind: "span", projectId: "7", span: s });
const accepted: ReadIngestRecord = {
  kind: "outcome", projectId: "7", outcome: "accepted", category: "span", reason: null, quantity: 4, timestamp: NOW,
};

describe("spanGroupsOf", () => {
  it("makes one row per trace, segments apart from the other spans, each ordered by end, with what the list filters on, and passes the outcomes on", () => {
    const spans = [
      span(1, TRACE_A, NOW - 10, { isSegment: true, op: "http.server", segmentName: "/checkout" }),
      span(2, TRACE_B, NOW - 20, { op: null }),
      span(3, TRACE_A, NOW - 30, { segmentName: "/checkout" }),
      span(4, TRACE_A, NOW - 10),
    ];
    const [outcome, a, b, ...rest] = spanGroupsOf([...spans.map(spanRecord), accepted]);
    assert.deepEqual(outcome, accepted);
    assert.deepEqual(rest, []);
    assert.deepEqual({ ...a!, key: "" }, {
      kind: "span_group", projectId: 7, traceId: TRACE_A, key: "", minEnd: NOW - 30, maxEnd: NOW - 10,
      ops: "\ndb\nhttp.server\n", segmentNames: "\n/checkout\n",
      segments: JSON.stringify([spans[0]]), spans: JSON.stringify([spans[2], spans[3]]),
      // The segment's performance sample (ADR 0022): project, end, trace, span, name, op, duration, failed, …
      samples: { segments: [[7, NOW - 10, TRACE_A, "0000000000000001", "/checkout", "http.server", 5, false, "", "", null]], vitals: [] },
    });
    assert.deepEqual({ ...b!, key: "" }, {
      kind: "span_group", projectId: 7, traceId: TRACE_B, key: "", minEnd: NOW - 20, maxEnd: NOW - 20,
      ops: "", segmentNames: "", segments: null, spans: JSON.stringify([spans[1]]),
      samples: { segments: [], vitals: [] },
    });
  });

  it("splits a trace's spans where they end more than the bound apart", () => {
    const ends = [NOW, NOW - SPAN_GROUP_MAX_SPREAD_MS, NOW - SPAN_GROUP_MAX_SPREAD_MS - 1, NOW - 3 * SPAN_GROUP_MAX_SPREAD_MS];
    const rows = spanGroupsOf(ends.map((end, i) => spanRecord(span(i + 1, TRACE_A, end))));
    assert.deepEqual(
      rows.map((row) => (row.kind === "span_group" ? [row.minEnd, row.maxEnd, (JSON.parse(row.spans!) as SpanData[]).map((s) => s.spanId)] : row.kind)),
      [
        [ends[3], ends[3], ["0000000000000004"]],
        [ends[2], ends[1], ["0000000000000003", "0000000000000002"]],
        [ends[0], ends[0], ["0000000000000001"]],
      ],
    );
  });

  it("keys a row by its span ids: the same container again gives the same keys, other spans other keys", () => {
    const keysOf = (spans: SpanData[]) => spanGroupsOf(spans.map(spanRecord)).map((row) => (row.kind === "span_group" ? row.key : row.kind));
    const first = keysOf([span(1, TRACE_A, NOW), span(2, TRACE_A, NOW - 1)]);
    assert.equal(first.length, 1);
    assert.match(first[0]!, /^[\w-]{22}$/);
    assert.deepEqual(keysOf([span(2, TRACE_A, NOW - 1), span(1, TRACE_A, NOW)]), first);
    assert.notDeepEqual(keysOf([span(1, TRACE_A, NOW), span(3, TRACE_A, NOW - 1)]), first);
    assert.notDeepEqual(keysOf([span(1, TRACE_A, NOW)]), first);
  });
});
