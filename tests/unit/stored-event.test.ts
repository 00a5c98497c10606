import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { parseEnvelope, type EnvelopeHeaders } from "../../src/ingest/envelope";
import { eventItem } from "../../src/items/event";
import type { ItemContext } from "../../src/items/types";
import { normalizeEvent, type NormalizeContext } from "../../src/processing/normalize";
import { storedEventOf } from "../../src/processing/stored-event";
import type { NormalizedEvent } from "../../src/processing/types";
import type { IngestRecord } from "../../src/model";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");
const CAPTURED = ["browser-uncaught-error", "node-error-cause", "node-message", "node-fingerprint", "node-big-event", "bench/node-medium-error"];
const CLIENT_IP = "203.0.113.7";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

type EventRecord = Extract<IngestRecord, { kind: "event" }>;

function contextOf(headers: EnvelopeHeaders, receivedAt: number): ItemContext {
  return { projectId: "1", envelopeHeaders: headers, receivedAt, clientIp: CLIENT_IP, userAgent: USER_AGENT };
}

/** Runs one event item through ingest's processor, as the pipeline does. */
function ingest(sdkJson: string, headers: EnvelopeHeaders, receivedAt: number): EventRecord {
  const item = { headers: { type: "event" }, payload: Buffer.from(sdkJson, "utf8") };
  const [record] = eventItem(1_000_000).process(item, contextOf(headers, receivedAt)).records;
  assert.equal(record?.kind, "event");
  return record as EventRecord;
}

/** What normalising the same payload in full at ingest would have given (the stored form before ADR 0005). */
function normalisedAtIngest(sdkJson: string, headers: EnvelopeHeaders, receivedAt: number, eventId?: string): NormalizedEvent {
  const ctx: NormalizeContext = {
    receivedAt,
    sentAt: typeof headers.sent_at === "string" ? headers.sent_at : undefined,
    envelopeEventId: eventId ?? (typeof headers.event_id === "string" ? headers.event_id : undefined),
    clientIp: CLIENT_IP,
    userAgent: USER_AGENT,
  };
  return normalizeEvent(JSON.parse(sdkJson), ctx);
}

const DISPLAY_ONLY = new Set(["breadcrumbs", "extra", "modules", "errors"]);

function withoutDisplayParts(event: NormalizedEvent): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([key]) => !DISPLAY_ONLY.has(key)));
}

describe("stored event payloads (ADR 0005)", () => {
  for (const name of CAPTURED) {
    test(`${name}: the stored SDK payload reads back as the event normalised in full at ingest`, () => {
      const envelope = parseEnvelope(readFileSync(path.join(fixtures, `${name}.envelope`)));
      const item = envelope.items.find((candidate) => candidate.headers.type === "event")!;
      const sdkJson = item.payload.toString("utf8");
      // Ten minutes after the SDK sent it: the clock-drift correction must come out the same on read.
      const receivedAt = Date.parse(String(envelope.headers.sent_at)) + 600_000;
      const record = ingest(sdkJson, envelope.headers, receivedAt);
      const expected = normalisedAtIngest(sdkJson, envelope.headers, receivedAt);

      assert.deepEqual(storedEventOf(record.payload), expected);
      assert.deepEqual(record.event, withoutDisplayParts(expected));
      // The SDK's own bytes are what is stored, not a re-serialisation.
      assert.ok(record.payload.includes(sdkJson));
    });
  }

  test("a payload without an event id keeps the id ingest made for it", () => {
    const sdkJson = JSON.stringify({ message: "no id here", timestamp: 1_700_000_000, breadcrumbs: [{ message: "b", timestamp: 1_699_999_999 }] });
    const record = ingest(sdkJson, {}, 1_700_000_000_000);
    assert.match(record.event.event_id, /^[0-9a-f]{32}$/);
    assert.deepEqual(storedEventOf(record.payload), normalisedAtIngest(sdkJson, {}, 1_700_000_000_000, record.event.event_id));
  });

  for (const invalidId of ["not-an-id", 123]) {
    test(`an invalid event_id (${JSON.stringify(invalidId)}) keeps its correction note and the id ingest made up`, () => {
      const sdkJson = JSON.stringify({ event_id: invalidId, message: "bad id" });
      const record = ingest(sdkJson, {}, 1_700_000_000_000);
      const full = normalizeEvent(JSON.parse(sdkJson), { receivedAt: 1_700_000_000_000, clientIp: CLIENT_IP, userAgent: USER_AGENT });
      assert.deepEqual(full.errors, [{ type: "invalid_data", name: "event_id", value: invalidId }]);
      assert.deepEqual(storedEventOf(record.payload), { ...full, event_id: record.event.event_id });
    });
  }

  test("the request's User-Agent is stored only when the event's own request headers carry none", () => {
    const own = ingest(JSON.stringify({ message: "m", request: { headers: { "User-Agent": "curl/8.5.0" } } }), {}, 1_700_000_000_000);
    assert.equal(own.payload.includes(USER_AGENT), false);
    const none = ingest(JSON.stringify({ message: "m" }), {}, 1_700_000_000_000);
    assert.equal(none.payload.includes(USER_AGENT), true);
    for (const [record, sdkJson] of [[own, '{"message":"m","request":{"headers":{"User-Agent":"curl/8.5.0"}}}'], [none, '{"message":"m"}']] as const) {
      assert.deepEqual(storedEventOf(record.payload), normalisedAtIngest(sdkJson, {}, 1_700_000_000_000, record.event.event_id));
    }
  });

  test("the client's IP is stored only when the SDK asked for it to be inferred", () => {
    const inferred = ingest(JSON.stringify({ message: "m", user: { ip_address: "{{auto}}" } }), {}, 1_700_000_000_000);
    assert.deepEqual(storedEventOf(inferred.payload).user, { ip_address: CLIENT_IP });
    assert.equal(inferred.event.user?.ip_address, CLIENT_IP);

    const notAsked = ingest(JSON.stringify({ message: "m", user: { id: "42" } }), {}, 1_700_000_000_000);
    assert.equal(notAsked.payload.includes(CLIENT_IP), false);
    assert.deepEqual(storedEventOf(notAsked.payload).user, { id: "42" });
  });

  test("an SDK payload that imitates the stored form's keys is still just an SDK payload", () => {
    const sdkJson = JSON.stringify({ periscope_sdk_event: 1, context: { event_id: "f".repeat(32) }, event: { message: "forged" }, message: "real" });
    const headers = { event_id: "a".repeat(32) };
    const record = ingest(sdkJson, headers, 1_700_000_000_000);
    const stored = storedEventOf(record.payload);
    assert.equal(stored.event_id, "a".repeat(32));
    assert.deepEqual(stored.logentry, { message: "real", formatted: "real" });
    assert.deepEqual(stored, normalisedAtIngest(sdkJson, headers, 1_700_000_000_000));
  });

  test("rows written before hold the normalised event, and read back as it", () => {
    const sdkJson = JSON.stringify({ message: "old row", extra: { a: 1 }, breadcrumbs: [{ message: "b", timestamp: 1_699_999_999 }] });
    const normalised = normalisedAtIngest(sdkJson, { event_id: "b".repeat(32) }, 1_700_000_000_000);
    assert.deepEqual(storedEventOf(JSON.stringify(normalised)), normalised);
  });

  test("invalid JSON, and JSON that is not an object, is refused at ingest as before, not stored", () => {
    for (const text of ['{"message": "cut off', '["message"]', "null", '"message"']) {
      const item = { headers: { type: "event" }, payload: Buffer.from(text, "utf8") };
      const result = eventItem(1_000_000).process(item, contextOf({}, 1_700_000_000_000));
      assert.deepEqual(result, {
        records: [{ kind: "outcome", projectId: "1", outcome: "invalid", category: "error", reason: "invalid_json", quantity: 1, timestamp: 1_700_000_000_000 }],
      }, text);
    }
  });
});
