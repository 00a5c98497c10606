/**
 * `log` containers in the shape @sentry/core 11.12 sends them (logs/envelope.js: `type: "log"`,
 * `item_count`, `content_type: application/vnd.sentry.items.log+json`, payload `{version: 2, items}`),
 * through the real envelope parser and pipeline. The SDK's own output is covered end to end by
 * tests/integration/logs-attachments.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { processEnvelope } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import { asRead, readSpanContainers } from "../../src/items/span-containers";
import type { ItemContext } from "../../src/items/types";
import type { IngestRecord, LogsRecord } from "../../src/model";

const registry = createItemRegistry({ maxEventBytes: 1024 * 1024 });
const RECEIVED = Date.UTC(2026, 10, 27, 12, 0, 0);
const TRACE = "5b8efff798038103d269b633813fc60c";

const context = (): ItemContext => ({ projectId: "3", envelopeHeaders: {}, receivedAt: RECEIVED, clientIp: undefined, userAgent: undefined });

function envelopeOf(items: [Record<string, unknown>, unknown][]): Buffer {
  const lines = [JSON.stringify({ sent_at: new Date(RECEIVED).toISOString() })];
  for (const [headers, payload] of items) lines.push(JSON.stringify(headers), typeof payload === "string" ? payload : JSON.stringify(payload));
  return Buffer.from(lines.join("\n"));
}

const logHeaders = (count: unknown) => ({ type: "log", item_count: count, content_type: "application/vnd.sentry.items.log+json" });

function sdkLine(level: string, body: string, secondsAgo: number, attributes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: RECEIVED / 1000 - secondsAgo, level, body, trace_id: TRACE,
    severity_number: { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 }[level],
    attributes: { "sentry.sdk.name": { value: "sentry.javascript.node", type: "string" }, ...attributes },
  };
}

/** The records as a store commits them: log containers read where their lines are written. */
const run = (body: Buffer) => readSpanContainers(processEnvelope(parseEnvelope(body), registry, context()).records, asRead).records;
const logsOf = (records: IngestRecord[]) => records.filter((record): record is LogsRecord => record.kind === "logs").flatMap((record) => record.logs);
const outcomesOf = (records: IngestRecord[]) =>
  records.flatMap((record) => (record.kind === "outcome" ? [[record.outcome, record.category, record.reason, record.quantity]] : []));

describe("log containers", () => {
  it("keeps every line with its level, severity, trace, parent span, attributes and nanoseconds", () => {
    const items = [
      sdkLine("trace", "t", 5), sdkLine("debug", "d", 4), sdkLine("info", "i", 3),
      sdkLine("warn", "w", 2, { "sentry.trace.parent_span_id": { value: "a1b2c3d4e5f60718", type: "string" } }),
      sdkLine("error", "e", 1, { retries: { value: 3, type: "integer" }, ok: { value: false, type: "boolean" } }),
      { ...sdkLine("fatal", "f", 0), timestamp: "2026-11-27T11:59:59.123456789Z", span_id: "0011223344556677" },
    ];
    const payload = { version: 2, items };
    const records = run(envelopeOf([[logHeaders(6), payload]]));
    const logs = logsOf(records);
    assert.deepEqual(logs.map((log) => [log.level, log.severityNumber, log.body, log.traceId]), [
      ["trace", 1, "t", TRACE], ["debug", 5, "d", TRACE], ["info", 9, "i", TRACE], ["warn", 13, "w", TRACE], ["error", 17, "e", TRACE],
      ["fatal", 21, "f", TRACE],
    ]);
    assert.equal(logs[3]!.spanId, "a1b2c3d4e5f60718", "the SDK names the active span as an attribute");
    assert.equal(logs[5]!.spanId, "0011223344556677");
    assert.equal(logs[5]!.timestampNs, `${BigInt(RECEIVED - 1000) * 1_000_000n + 123_456_789n}`, "nine fraction digits kept exactly");
    assert.ok(Math.abs(logs[5]!.timestamp - (RECEIVED - 1000 + 123.456789)) < 0.001);
    assert.deepEqual(logs[4]!.attributes, {
      "sentry.sdk.name": { value: "sentry.javascript.node", type: "string" }, retries: { value: 3, type: "integer" }, ok: { value: false, type: "boolean" },
    });
    assert.equal(new Set(logs.map((log) => log.id)).size, 6);
    assert.ok(logs.every((log) => /^[0-9a-f]{32}$/.test(log.id)));
    const bytes = JSON.stringify(payload).length;
    assert.deepEqual(outcomesOf(records), [["accepted", "log_item", null, 6], ["accepted", "log_byte", null, bytes]]);
  });

  it("refuses a container whose item_count lies, and keeps the rest of the envelope", () => {
    const event = { event_id: "a".repeat(32), message: "kept", timestamp: RECEIVED / 1000 };
    for (const count of [3, 1, "2", undefined]) {
      const records = run(envelopeOf([[logHeaders(count), { items: [sdkLine("info", "a", 1), sdkLine("info", "b", 1)] }], [{ type: "event" }, event]]));
      assert.deepEqual(logsOf(records), [], `item_count ${String(count)}`);
      const declared = typeof count === "number" ? count : 1;
      assert.deepEqual(outcomesOf(records).slice(0, 2), [["invalid", "log_item", "invalid_log", declared], ["invalid", "log_byte", "invalid_log", outcomeBytes(records)]]);
      assert.ok(records.some((record) => record.kind === "event"), "the event beside it is kept");
    }
  });

  it("drops only the bad lines: no level, no body, no time, or a time beyond retention", () => {
    const items = [
      sdkLine("info", "good", 1), { ...sdkLine("info", "x", 1), level: "loud" }, { ...sdkLine("info", "x", 1), body: 42 },
      { ...sdkLine("info", "x", 1), timestamp: "yesterday" }, sdkLine("info", "ancient", 40 * 86_400), sdkLine("warning", "aliased", 1),
    ];
    const records = run(envelopeOf([[logHeaders(items.length), { items }]]));
    assert.deepEqual(logsOf(records).map((log) => [log.body, log.level]), [["good", "info"], ["aliased", "warn"]]);
    assert.deepEqual(outcomesOf(records).filter(([kind]) => kind === "invalid"), [["invalid", "log_item", "invalid_log", 3], ["invalid", "log_item", "timestamp", 1]]);
  });

  it("refuses a container that is not JSON or has another content type", () => {
    assert.deepEqual(outcomesOf(run(envelopeOf([[logHeaders(2), "{not json"]])))[0], ["invalid", "log_item", "invalid_json", 2]);
    const other = { ...logHeaders(1), content_type: "text/plain" };
    assert.deepEqual(outcomesOf(run(envelopeOf([[other, { items: [sdkLine("info", "a", 1)] }]])))[0], ["invalid", "log_item", "invalid_log", 1]);
  });

  it("scrubs sensitive attributes and card numbers in the body before they are kept", () => {
    const items = [sdkLine("info", "paid with 4111 1111 1111 1111", 1, { password: { value: "hunter2", type: "string" }, user: { value: "ann", type: "string" } })];
    const [log] = logsOf(run(envelopeOf([[logHeaders(1), { items }]])));
    assert.equal(log!.attributes.password!.value, "[Filtered]");
    assert.equal(log!.attributes.password!.type, "string", "an attribute keeps its shape");
    assert.equal(log!.attributes.user!.value, "ann");
    assert.doesNotMatch(log!.body, /4111/);
  });
});

function outcomeBytes(records: IngestRecord[]): number {
  const bytes = records.find((record) => record.kind === "outcome" && record.category === "log_byte");
  return bytes && bytes.kind === "outcome" ? bytes.quantity : -1;
}
