/**
 * Inbound filters decide on the item as the SDK sent it, before scrubbing (src/items/filter.ts), and
 * apply to transactions as Relay applies them: with "scrub IP addresses" on, the IP filter still
 * matches the client's address; a filtered transaction is counted `filtered` for its transaction
 * and its spans; the error-only filters leave transactions alone.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compileFilters } from "../../src/ingest/inbound-filters";
import { processStoreBody } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import { eventItem } from "../../src/items/event";
import { readSpanContainer, spanItem } from "../../src/items/span";
import { transactionItem } from "../../src/items/transaction";
import type { ItemContext, ItemResult } from "../../src/items/types";
import { DEFAULT_PRIVACY, effectivePrivacy, type InboundFilters, type IngestRecord, type SpanContainerRecord } from "../../src/model";
import { compileScrubber } from "../../src/processing/scrub/scrubber";

const OFF: InboundFilters = { browserExtensions: false, localhost: false, webCrawlers: false, legacyBrowsers: [], errorMessages: [], releases: [], ipAddresses: [] };
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const IE_11 = "Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko";
const SCRUB_IPS = compileScrubber(effectivePrivacy(DEFAULT_PRIVACY, { ...DEFAULT_PRIVACY, scrubIPAddresses: true }));

/** The context accept.ts makes: with IPs scrubbed `clientIp` is empty, the address is kept aside. */
function context(filters: Partial<InboundFilters>, options: { address?: string; userAgent?: string; scrubIps?: boolean } = {}): ItemContext {
  const address = options.address ?? "203.0.113.9";
  const scrubber = options.scrubIps ? SCRUB_IPS : undefined;
  return {
    projectId: "1", envelopeHeaders: {}, receivedAt: Date.now(),
    clientIp: options.scrubIps ? undefined : address, clientAddress: address, userAgent: options.userAgent,
    eventFilter: compileFilters({ ...OFF, ...filters }) ?? undefined, scrubber,
  };
}

const outcomes = (result: ItemResult) =>
  result.records.filter((record): record is Extract<IngestRecord, { kind: "outcome" }> => record.kind === "outcome").map((record) => [record.outcome, record.category, record.reason, record.quantity]);
const stored = (result: ItemResult) => result.records.some((record) => record.kind === "event" || record.kind === "transaction");

const event = (json: object, ctx: ItemContext) => eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify(json)) }, ctx);

function transaction(ctx: ItemContext, extra: object = {}, spans = 2): ItemResult {
  const now = Date.now() / 1000;
  const json = {
    type: "transaction", transaction: "GET /cart", start_timestamp: now - 1, timestamp: now, release: "web@1.0.0",
    contexts: { trace: { trace_id: "a".repeat(32), span_id: "b".repeat(16) } },
    spans: Array.from({ length: spans }, (_, index) => ({ span_id: String(index + 1).padStart(16, "c"), trace_id: "a".repeat(32), start_timestamp: now - 1, timestamp: now })),
    ...extra,
  };
  return transactionItem(1_000_000).process({ headers: { type: "transaction" }, payload: Buffer.from(JSON.stringify(json)) }, ctx);
}

describe("filters see the event before scrubbing", () => {
  test("with IP addresses scrubbed, the IP filter still matches the connection's address", () => {
    const ctx = context({ ipAddresses: ["198.51.100.0/24"] }, { address: "198.51.100.7", scrubIps: true });
    const result = event({ message: "from a blocked range" }, ctx);
    assert.deepEqual(outcomes(result), [["filtered", "error", "ip-address", 1]]);
    assert.equal(stored(result), false);
    // Another address is kept, and stored without any address.
    const kept = event({ message: "from elsewhere" }, context({ ipAddresses: ["198.51.100.0/24"] }, { address: "192.0.2.1", scrubIps: true }));
    assert.equal(stored(kept), true);
    assert.equal(JSON.stringify(kept.records).includes("192.0.2.1"), false);
  });

  test("with IP addresses scrubbed, the event's own user.ip_address (and {{auto}}) still match", () => {
    const filters = { ipAddresses: ["10.1.0.0/16"] };
    assert.deepEqual(outcomes(event({ message: "m", user: { ip_address: "10.1.2.3" } }, context(filters, { scrubIps: true }))), [["filtered", "error", "ip-address", 1]]);
    assert.deepEqual(outcomes(event({ message: "m", user: { ip_address: "{{auto}}" } }, context(filters, { address: "10.1.9.9", scrubIps: true }))), [["filtered", "error", "ip-address", 1]]);
  });

  test("localhost by address with IP addresses scrubbed", () => {
    const result = event({ message: "local" }, context({ localhost: true }, { address: "127.0.0.1", scrubIps: true }));
    assert.deepEqual(outcomes(result), [["filtered", "error", "localhost", 1]]);
  });

  test("a message glob matches the SDK's text, not the scrubbed one", () => {
    const ctx = context({ errorMessages: ["*password=hunter2*"] });
    const result = event({ exception: { values: [{ type: "Error", value: "login failed password=hunter2" }] } }, ctx);
    assert.deepEqual(outcomes(result), [["filtered", "error", "error-message", 1]]);
    // The same event with the filter off is stored scrubbed: the glob could only match before.
    const kept = event({ exception: { values: [{ type: "Error", value: "login failed password=hunter2" }] } }, context({ releases: ["nope"] }));
    assert.equal(stored(kept), true);
    assert.equal(JSON.stringify(kept.records).includes("hunter2"), false);
  });

  test("the store endpoint filters before scrubbing too", () => {
    const ctx = context({ ipAddresses: ["198.51.100.7"] }, { address: "198.51.100.7", scrubIps: true });
    const result = processStoreBody(Buffer.from(JSON.stringify({ message: "hi" })), 1_000_000, ctx, createItemRegistry({ maxEventBytes: 1_000_000 }));
    assert.ok(!(result instanceof Promise));
    assert.deepEqual(result.records.map((record) => record.kind), ["outcome"]);
    assert.equal(result.eventId, null);
  });
});

describe("filters on transactions", () => {
  test("IP, release, localhost, crawler and legacy-browser filters drop transactions with their spans", () => {
    const cases: [Partial<InboundFilters>, Parameters<typeof context>[1], object, string][] = [
      [{ ipAddresses: ["198.51.100.0/24"] }, { address: "198.51.100.7", scrubIps: true }, {}, "ip-address"],
      [{ releases: ["web@1.*"] }, {}, {}, "release-version"],
      [{ localhost: true }, {}, { request: { url: "http://localhost:3000/cart" } }, "localhost"],
      [{ webCrawlers: true }, { userAgent: GOOGLEBOT }, {}, "web-crawlers"],
      [{ legacyBrowsers: ["ie"] }, {}, { request: { headers: { "User-Agent": IE_11 } } }, "legacy-browsers"],
    ];
    for (const [filters, options, extra, reason] of cases) {
      const result = transaction(context(filters, options), extra, 2);
      assert.equal(stored(result), false, reason);
      // Counted as Relay counts a dropped transaction: one transaction, its two spans plus the segment.
      assert.deepEqual(outcomes(result), [["filtered", "transaction", reason, 1], ["filtered", "span", reason, 3]], reason);
    }
  });

  test("error-only filters leave transactions alone, and unmatched transactions are stored", () => {
    const ctx = context({ errorMessages: ["*"], browserExtensions: true, releases: ["other@*"], ipAddresses: ["198.51.100.0/24"] });
    const result = transaction(ctx, { message: "anything", exception: { values: [{ type: "Error", value: "x", stacktrace: { frames: [{ abs_path: "chrome-extension://abc/x.js" }] } }] } });
    assert.equal(stored(result), true);
    assert.deepEqual(outcomes(result), [["accepted", "transaction", null, 1], ["accepted", "span", null, 3]]);
  });
});

describe("filters on streamed (v2) spans", () => {
  const now = Date.now() / 1000;
  const span = (id: number, release: string, extra: object = {}) => ({
    trace_id: "a".repeat(32), span_id: String(id).padStart(16, "0"), name: `span ${id}`, start_timestamp: now - 1, end_timestamp: now,
    attributes: { "sentry.release": { type: "string", value: release }, ...extra },
  });
  const container = (spans: object[], ctx: ItemContext) =>
    spanItem().process({ headers: { type: "span", content_type: "application/vnd.sentry.items.span.v2+json", item_count: spans.length }, payload: Buffer.from(JSON.stringify({ items: spans })) }, ctx);
  const storedSpans = (result: ItemResult) =>
    result.records.flatMap((record) => (record.kind === "span_container" ? readSpanContainer(record as SpanContainerRecord) : [])).flatMap((record) => (record.kind === "span" ? [record.span.spanId] : []));

  test("spans a filter drops leave the container, counted per reason; the rest are read as before", () => {
    const ctx = context({ releases: ["web@*-beta*"], webCrawlers: true });
    const result = container(
      [span(1, "web@2.0-beta.1"), span(2, "web@2.0.0"), span(3, "web@2.0-beta.1"), span(4, "web@2.0.0", { "user_agent.original": { type: "string", value: GOOGLEBOT } })],
      ctx,
    );
    assert.deepEqual(outcomes(result), [["filtered", "span", "release-version", 2], ["filtered", "span", "web-crawlers", 1]]);
    assert.deepEqual(storedSpans(result), ["0000000000000002"]);
  });

  test("the connection's address drops every span of the container, with IPs scrubbed; error-only filters none", () => {
    const dropped = container([span(1, "a"), span(2, "a")], context({ ipAddresses: ["198.51.100.0/24"] }, { address: "198.51.100.7", scrubIps: true }));
    assert.deepEqual(dropped.records.map((record) => record.kind), ["outcome"]);
    assert.deepEqual(outcomes(dropped), [["filtered", "span", "ip-address", 2]]);
    const kept = container([span(1, "a"), span(2, "a")], context({ errorMessages: ["*"], browserExtensions: true }));
    assert.deepEqual(storedSpans(kept), ["0000000000000001", "0000000000000002"]);
  });
});
