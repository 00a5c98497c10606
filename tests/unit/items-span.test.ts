/**
 * `span` items over real SDK output: @sentry/browser 11 streams page loads, navigations and web
 * vitals as v2 containers; @sentry/node does with `traceLifecycle: "stream"`. v1 standalone spans
 * (older SDKs' web vitals) are one v1 span — built here from a real v1 span out of a captured
 * transaction, since SDK 11 no longer sends that form.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EnvelopeItem } from "../../src/ingest/envelope";
import { readSpanContainer, spanItem } from "../../src/items/span";
import type { SpanContainerRecord, SpanData } from "../../src/model";
import { accepted, contextFor, edited, firstItem, fixture, invalid, payloadOf, process, PROJECT_ID } from "../helpers/items";

const PAGELOAD = "telemetry/browser-span-v2-pageload";
const CLICK = "telemetry/browser-span-v2-ui.interaction.click";
const NODE = "telemetry/node-stream-span-v2-task";

type V2Span = { span_id: string; trace_id: string; parent_span_id?: string; name: string; start_timestamp: number; end_timestamp: number; is_segment: boolean; status: string; attributes: Record<string, { value: unknown }> };

function spansOf(name: string) {
  const envelope = fixture(name);
  const context = contextFor(envelope);
  const result = process(firstItem(name), context);
  const spans = result.records.flatMap((record) => (record.kind === "span" ? [record.span] : []));
  const outcomes = result.records.filter((record) => record.kind === "outcome");
  const raw = (payloadOf(firstItem(name)).items as V2Span[]);
  return { context, spans, outcomes, raw };
}

const values = (attributes: V2Span["attributes"]) => Object.fromEntries(Object.entries(attributes).map(([key, attribute]) => [key, attribute.value]));

describe("v2 span containers from @sentry/browser", () => {
  it("stores every span of the page load, naming the segment by its URL path", () => {
    const { context, spans, outcomes, raw } = spansOf(PAGELOAD);
    assert.equal(spans.length, raw.length);
    assert.deepEqual(outcomes, [accepted("span", context.receivedAt, raw.length)]);
    const segment = raw.find((span) => span.is_segment)!;
    const attributes = values(segment.attributes);
    assert.deepEqual([segment.name, attributes["sentry.segment.name.source"], attributes["url.path"]], ["Pageload", "url", "/stream"], "SDK 11 names streamed page loads with a fallback");
    assert.deepEqual(spans.find((span) => span.isSegment), {
      traceId: segment.trace_id, spanId: segment.span_id, parentSpanId: null, segmentId: segment.span_id, eventId: null, isSegment: true,
      op: "pageload", name: "Pageload", status: "ok", start: segment.start_timestamp * 1000, end: segment.end_timestamp * 1000,
      segmentName: String(attributes["url.path"]), release: "periscope-fixtures@1.0.0", environment: "fixtures", sdkName: "sentry.javascript.browser",
      attributes,
      measurements: {
        ttfb: attributes["browser.web_vital.ttfb.value"], fp: attributes["browser.web_vital.fp.value"], fcp: attributes["browser.web_vital.fcp.value"],
      },
    } as SpanData);
    assert.deepEqual(new Set(spans.map((span) => [span.segmentId, span.segmentName, span.traceId].join(" "))), new Set([`${segment.span_id} ${String(attributes["url.path"])} ${segment.trace_id}`]));
    const lcp = spans.find((span) => span.op === "ui.webvital.lcp");
    assert.deepEqual(lcp?.measurements, { lcp: values(raw.find((span) => span.span_id === lcp?.spanId)!.attributes)["browser.web_vital.lcp.value"] });
  });

  it("stores the INP click and CLS spans reported when the page was hidden, with their web vital", () => {
    const { spans, raw } = spansOf(CLICK);
    const vital = (op: string, name: string) => {
      const span = spans.find((candidate) => candidate.op === op)!;
      const sent = values(raw.find((candidate) => candidate.span_id === span.spanId)!.attributes);
      return { parent: span.parentSpanId === span.segmentId, segmentName: span.segmentName, measurements: span.measurements, sent: sent[`browser.web_vital.${name}.value`] };
    };
    const inp = vital("ui.interaction.click", "inp");
    const cls = vital("ui.webvital.cls", "cls");
    assert.deepEqual(inp, { parent: true, segmentName: "Pageload", measurements: { inp: inp.sent }, sent: inp.sent });
    assert.deepEqual(cls, { parent: true, segmentName: "Pageload", measurements: { cls: cls.sent }, sent: cls.sent });
  });

  it("stores @sentry/node's streamed segment and children under the segment's name", () => {
    const { spans, raw } = spansOf(NODE);
    assert.deepEqual(
      spans.map((span) => [span.name, span.op, span.isSegment, span.segmentName, span.status]).toSorted(),
      [["charge card", "http.client", false, "checkout", "error"], ["checkout", "task", true, "checkout", "ok"], ["load cart", "db.query", false, "checkout", "ok"], ["sign request", "function", false, "checkout", "ok"]],
    );
    assert.equal(spans.length, raw.length);
  });
});

describe("v1 standalone spans", () => {
  /** A real v1 span (the first child of the captured Node transaction) as its own item. */
  function v1Item(edit: (span: Record<string, unknown>) => unknown = (span) => span): EnvelopeItem {
    const transaction = payloadOf(firstItem("telemetry/node-transaction-task"));
    const [span] = transaction.spans as Record<string, unknown>[];
    const next = edit({ ...span, is_segment: false, data: { ...(span!.data as object), transaction: "checkout", release: "api@1", environment: "prod" } }) ?? span;
    return { headers: { type: "span" }, payload: Buffer.from(typeof next === "string" ? next : JSON.stringify(next)) };
  }
  const context = contextFor(fixture("telemetry/node-transaction-task"));

  it("stores one span row with segment name, release and environment from its data", () => {
    const sent = payloadOf(v1Item());
    assert.deepEqual(process(v1Item(), context), {
      records: [
        {
          kind: "span", projectId: PROJECT_ID,
          span: {
            traceId: sent.trace_id, spanId: sent.span_id, parentSpanId: sent.parent_span_id, segmentId: null, eventId: null, isSegment: false,
            op: "db.query", name: "load cart", status: "ok", start: (sent.start_timestamp as number) * 1000, end: (sent.timestamp as number) * 1000,
            segmentName: "checkout", release: "api@1", environment: "prod", sdkName: "sentry.javascript.node",
            attributes: sent.data, measurements: {},
          },
        },
        accepted("span", context.receivedAt),
      ],
    });
  });

  it("drops a span without ids, times or JSON, or ending before it starts", () => {
    for (const edit of [
      (span: Record<string, unknown>) => ({ ...span, trace_id: undefined }),
      (span: Record<string, unknown>) => ({ ...span, span_id: "xyz" }),
      (span: Record<string, unknown>) => ({ ...span, start_timestamp: undefined }),
      (span: Record<string, unknown>) => ({ ...span, timestamp: (span.start_timestamp as number) - 0.5 }),
    ]) {
      assert.deepEqual(process(v1Item(edit), context), { records: [invalid("span", "invalid_span", context.receivedAt)] });
    }
    assert.deepEqual(process(v1Item(() => "nope"), context), { records: [invalid("span", "invalid_json", context.receivedAt)] });
  });
});

describe("invalid v2 containers and spans", () => {
  const envelope = fixture(CLICK);
  const context = contextFor(envelope);
  const item = firstItem(CLICK);

  it("rejects a container whose item_count is wrong or that has no items list, counting item_count spans", () => {
    const miscounted: EnvelopeItem = { headers: { ...item.headers, item_count: 3 }, payload: item.payload };
    assert.deepEqual(process(miscounted, context), { records: [invalid("span", "invalid_span", context.receivedAt, 3)] });
    const noCount: EnvelopeItem = { headers: { type: "span", content_type: item.headers.content_type }, payload: item.payload };
    assert.deepEqual(process(noCount, context), { records: [invalid("span", "invalid_span", context.receivedAt)] });
    assert.deepEqual(process(edited(item, (payload) => ({ ...payload, items: undefined })), context), { records: [invalid("span", "invalid_span", context.receivedAt, 2)] });
    assert.deepEqual(process(edited(item, () => "]"), context), { records: [invalid("span", "invalid_json", context.receivedAt, 2)] });
  });

  it("drops only the invalid elements of a container", () => {
    const oneBad = edited(item, (payload) => {
      const [first, second] = payload.items as V2Span[];
      payload.items = [first, { ...second, end_timestamp: second!.start_timestamp - 1 }];
    });
    const result = process(oneBad, context);
    assert.deepEqual(result.records.map((record) => (record.kind === "span" ? record.span.op : record)), [
      "ui.interaction.click",
      accepted("span", context.receivedAt),
      invalid("span", "invalid_span", context.receivedAt),
    ]);
  });

  it("leaves a container unread for the store, with what reading it needs", () => {
    // Received an hour after the client's clock says it was sent: its spans move by that hour.
    const late = contextFor(envelope, Date.parse(String(envelope.headers.sent_at)) + 3_600_000);
    const [record] = spanItem().process(item, late).records;
    assert.deepEqual(record, {
      kind: "span_container", projectId: PROJECT_ID, json: item.payload.toString("utf8"), itemCount: 2,
      receivedAt: late.receivedAt, shift: 3_600, sdkName: "sentry.javascript.browser",
    });
  });

  it("counts a container that reading fails on as internal instead of throwing", () => {
    const [record] = spanItem().process(item, context).records as [SpanContainerRecord];
    // A getter that throws stands in for a bug in reading: the commit it shares must not fail.
    const broken = { ...record, get itemCount(): unknown { throw new Error("boom"); } };
    assert.deepEqual(readSpanContainer(broken), [invalid("span", "internal", context.receivedAt)]);
  });

  it("drops spans that ended over 30 days ago or over 60 s ahead", () => {
    const sentAt = Date.parse(String(envelope.headers.sent_at));
    const noSentAt = { ...envelope, headers: { sdk: envelope.headers.sdk } };
    assert.deepEqual(process(item, contextFor(noSentAt, sentAt + 31 * 86_400_000)), { records: [invalid("span", "timestamp", sentAt + 31 * 86_400_000, 2)] });
    const early = (payloadOf(item).items as V2Span[]).reduce((min, span) => Math.min(min, span.end_timestamp), Infinity) * 1000;
    assert.deepEqual(process(item, contextFor(noSentAt, early - 120_000)), { records: [invalid("span", "timestamp", early - 120_000, 2)] });
  });
});
