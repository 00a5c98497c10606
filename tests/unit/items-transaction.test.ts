/**
 * `transaction` items over real SDK output (@sentry/node `startSpan` with nested children;
 * @sentry/browser page load with web vitals), and Relay's reasons to reject one.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SpanData, TransactionPayload } from "../../src/model";
import { accepted, contextFor, edited, firstItem, fixture, invalid, payloadOf, process } from "../helpers/items";

const NODE = "telemetry/node-transaction-task";
const PAGELOAD = "telemetry/browser-static-transaction-pageload";

function stored(name: string) {
  const envelope = fixture(name);
  const context = contextFor(envelope);
  const result = process(firstItem(name), context);
  const [record, ...outcomes] = result.records;
  assert.ok(record?.kind === "transaction", "a transaction record");
  return { envelope, context, result, payload: record.transaction, spans: record.spans, outcomes };
}

describe("transactions from @sentry/node", () => {
  it("keeps the transaction whole, shifted by the clock drift like its event timestamp", () => {
    const { envelope, context, result, payload, outcomes } = stored(NODE);
    const raw = payloadOf(firstItem(NODE));
    const sentAt = Date.parse(String(envelope.headers.sent_at)) / 1000;
    const shift = context.receivedAt / 1000 - sentAt;
    assert.equal(result.eventId, envelope.headers.event_id);
    const rawSpans = raw.spans as Record<string, unknown>[];
    assert.deepEqual(
      {
        type: payload.type, event_id: payload.event_id, transaction: payload.transaction, transaction_info: payload.transaction_info,
        level: payload.level, platform: payload.platform, release: payload.release, environment: payload.environment,
        start_timestamp: payload.start_timestamp, timestamp: payload.timestamp, trace: payload.contexts.trace,
        measurements: payload.measurements, spans: payload.spans,
      },
      {
        type: "transaction", event_id: envelope.headers.event_id, transaction: "checkout", transaction_info: { source: "custom" },
        level: "info", platform: "node", release: "periscope-fixtures@1.0.0", environment: "fixtures",
        start_timestamp: (raw.start_timestamp as number) + shift, timestamp: (raw.timestamp as number) + shift,
        trace: (raw.contexts as Record<string, unknown>).trace, measurements: {},
        spans: rawSpans.map((span) => ({ ...span, start_timestamp: (span.start_timestamp as number) + shift, timestamp: (span.timestamp as number) + shift })),
      },
    );
    assert.deepEqual(outcomes, [accepted("transaction", context.receivedAt), accepted("span", context.receivedAt, 4)]);
  });

  it("also gives one span row for the root (the segment) and one per child", () => {
    const { payload, spans } = stored(NODE);
    const ms = (seconds: number) => seconds * 1000;
    const [load, charge, sign] = payload.spans;
    assert.ok(load && charge && sign);
    const root = String(payload.contexts.trace?.span_id);
    const common = {
      traceId: String(payload.contexts.trace?.trace_id), eventId: payload.event_id, segmentId: root, segmentName: "checkout",
      release: "periscope-fixtures@1.0.0", environment: "fixtures", sdkName: "sentry.javascript.node", measurements: {},
    };
    // The nesting startSpan made: root → load cart, root → charge card → sign request.
    assert.deepEqual([load.parent_span_id, charge.parent_span_id, sign.parent_span_id], [root, root, charge.span_id]);
    const expected: SpanData[] = [
      {
        ...common, spanId: root, parentSpanId: null, isSegment: true, op: "task", name: "checkout", status: "ok",
        start: ms(payload.start_timestamp), end: ms(payload.timestamp),
        attributes: { "sentry.origin": "manual", "sentry.op": "task", "sentry.segment.name.source": "custom", "sentry.sample_rate": 1, "cart.items": 3 },
      },
      {
        ...common, spanId: load.span_id, parentSpanId: root, isSegment: false, op: "db.query", name: "load cart", status: "ok",
        start: ms(load.start_timestamp), end: ms(load.timestamp), attributes: { "sentry.origin": "manual", "sentry.op": "db.query" },
      },
      {
        ...common, spanId: charge.span_id, parentSpanId: root, isSegment: false, op: "http.client", name: "charge card",
        status: "internal_error", start: ms(charge.start_timestamp), end: ms(charge.timestamp), attributes: { "sentry.origin": "manual", "sentry.op": "http.client" },
      },
      {
        ...common, spanId: sign.span_id, parentSpanId: charge.span_id, isSegment: false, op: "function", name: "sign request", status: "ok",
        start: ms(sign.start_timestamp), end: ms(sign.timestamp), attributes: { "sentry.origin": "manual", "sentry.op": "function" },
      },
    ];
    assert.deepEqual(spans, expected);
  });
});

describe("page-load transactions from @sentry/browser", () => {
  it("keeps web vitals as measurements (names lower-cased, a missing unit as none) and puts them on the segment row", () => {
    const { payload, spans } = stored(PAGELOAD);
    const sent = payloadOf(firstItem(PAGELOAD)).measurements as Record<string, { value: number; unit: string }>;
    const value = (name: string) => sent[name]!.value;
    assert.deepEqual(payload.measurements, {
      "connection.rtt": { value: value("connection.rtt"), unit: "millisecond" },
      ttfb: { value: value("ttfb"), unit: "millisecond" },
      fp: { value: value("fp"), unit: "millisecond" },
      fcp: { value: value("fcp"), unit: "millisecond" },
      lcp: { value: value("lcp"), unit: "millisecond" },
      cls: { value: value("cls"), unit: "none" },
      "ttfb.requesttime": { value: value("ttfb.requestTime"), unit: "millisecond" },
    } satisfies TransactionPayload["measurements"]);
    assert.equal(sent.cls?.unit, "", "the SDK sends CLS with an empty unit");
    assert.deepEqual(
      spans.map((span) => [span.isSegment, span.op, span.name, span.segmentName]).slice(0, 3),
      [[true, "pageload", "/static", "/static"], [false, "http.client", "GET /data.json", "/static"], [false, "ui.long_animation_frame", "Main UI thread blocked", "/static"]],
    );
    assert.deepEqual(spans[0]?.measurements, Object.fromEntries(Object.entries(payload.measurements).map(([name, m]) => [name, m.value])));
    assert.equal(spans.length, payload.spans.length + 1);
  });
});

describe("invalid transactions", () => {
  const envelope = fixture(NODE);
  const context = contextFor(envelope);
  const rejected = (spans: number, reason = "invalid_transaction") => ({
    records: [invalid("transaction", reason, context.receivedAt), invalid("span", reason, context.receivedAt, spans + 1)],
  });
  const reject = (edit: (payload: Record<string, unknown>) => unknown) => process(edited(firstItem(NODE), edit), context);
  const trace = (payload: Record<string, unknown>) => (payload.contexts as Record<string, Record<string, unknown>>).trace!;

  it("rejects what Relay's validate_transaction rejects, counting the transaction and its spans + 1", () => {
    const cases: [string, (payload: Record<string, unknown>) => unknown][] = [
      ["ends before it starts", (p) => ({ ...p, timestamp: (p.start_timestamp as number) - 1 })],
      ["no start_timestamp", (p) => ({ ...p, start_timestamp: undefined })],
      ["no timestamp", (p) => ({ ...p, timestamp: null })],
      ["no trace context", (p) => ({ ...p, contexts: { runtime: { name: "node" } } })],
      ["trace context without span_id", (p) => { delete trace(p).span_id; }],
      ["trace id not hex", (p) => { trace(p).trace_id = "not-a-trace"; }],
      ["a span ending before it starts", (p) => { (p.spans as Record<string, unknown>[])[1]!.timestamp = 1; }],
      ["a span without span_id", (p) => { delete (p.spans as Record<string, unknown>[])[2]!.span_id; }],
      ["spans not a list", (p) => ({ ...p, spans: { a: 1 } })],
    ];
    for (const [what, edit] of cases) {
      const spans = what === "spans not a list" ? 0 : 3;
      assert.deepEqual(reject(edit), rejected(spans), what);
    }
  });

  it("rejects a payload that is not JSON as invalid_json", () => {
    assert.deepEqual(reject(() => "{"), rejected(0, "invalid_json"));
  });

  it("names a transaction sent without a name as Relay does", () => {
    const { records } = process(edited(firstItem(NODE), (p) => ({ ...p, transaction: undefined })), context);
    assert.equal(records[0]?.kind === "transaction" && records[0].transaction.transaction, "<unlabeled transaction>");
  });
});

describe("a transaction's level", () => {
  const context = contextFor(fixture(NODE));
  const levelOf = (level: unknown) => {
    const { records } = process(edited(firstItem(NODE), (p) => ({ ...p, level })), context);
    const [record] = records;
    assert.ok(record?.kind === "transaction", "a transaction record");
    return { level: record.transaction.level, notes: record.transaction.errors };
  };

  it("is info when the SDK names none, as Relay defaults it, and the SDK's own when it names one", () => {
    assert.deepEqual(levelOf(undefined), { level: "info", notes: [] });
    assert.deepEqual(levelOf(null), { level: "info", notes: [] });
    assert.deepEqual(levelOf("warning"), { level: "warning", notes: [] });
  });

  it("is error, with a note, when the SDK names one that does not exist, as for error events", () => {
    assert.deepEqual(levelOf("loud"), { level: "error", notes: [{ type: "invalid_data", name: "level", value: "loud" }] });
  });
});
