import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { processStoreBody } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import { eventItem } from "../../src/items/event";
import { transactionItem } from "../../src/items/transaction";
import type { ItemContext } from "../../src/items/types";
import { DEFAULT_PRIVACY, effectivePrivacy, type IngestRecord, type PrivacySettings } from "../../src/model";
import { scrubbedValues } from "../../src/processing/scrub/meta";
import { storedEventOf } from "../../src/processing/stored-event";
import { luhnValid } from "../../src/processing/scrub/defaults";
import { compilePiiConfig, PiiConfigError } from "../../src/processing/scrub/pii-config";
import { compileScrubber, type MetaTree } from "../../src/processing/scrub/scrubber";
import { parseSelector, selects } from "../../src/processing/scrub/selectors";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function scrubWith(settings: Partial<PrivacySettings>, event: { [key: string]: Json }): { event: { [key: string]: Json }; meta: MetaTree | null } {
  const scrubber = compileScrubber(effectivePrivacy({ ...DEFAULT_PRIVACY, dataScrubber: false, dataScrubberDefaults: false }, { ...DEFAULT_PRIVACY, ...settings }));
  assert.ok(scrubber, "these settings scrub something");
  const copy = structuredClone(event);
  return { event: copy, meta: scrubber.scrub(copy) };
}

const scrub = (event: { [key: string]: Json }) => scrubWith({}, event);

const PEM = "-----BEGIN PRIVATE KEY-----\nMIIJRAIBADANBgkqhkiG9w0BAQEFAASCCS4wggkqAgEAAoICAQCoNFY4P+EeIXl0\n-----END PRIVATE KEY-----";

describe("default rules", () => {
  test("sensitive keys anywhere: the value is [Filtered] whatever its type, with a remark", () => {
    const { event, meta } = scrub({
      extra: { password: "hunter2", the_secret: 42, apiKey: ["a", "b"], credentials: { user: "x" }, foo: "bar", nothing: null },
      user: { id: "u1", session_id: "s1" },
      contexts: { app: { github_token: "ghp_x" } },
    });
    assert.deepEqual(event.extra, { password: "[Filtered]", the_secret: "[Filtered]", apiKey: "[Filtered]", credentials: "[Filtered]", foo: "bar", nothing: null });
    assert.deepEqual(event.user, { id: "u1", session_id: "[Filtered]" });
    assert.deepEqual(event.contexts, { app: { github_token: "[Filtered]" } });
    assert.deepEqual((meta as { extra: { password: MetaTree } }).extra.password, { "": { rem: [["@password:filter", "s"]], len: 7 } });
  });

  test("request headers and cookies, as objects and as pairs", () => {
    const { event } = scrub({
      request: {
        headers: { Authorization: "Basic dXNlcjpwYXNz", Cookie: "a=b", "Set-Cookie": "sid=1", Accept: "text/html" },
        cookies: [["theme", "dark"], ["sessionid", "abc"]],
      },
      breadcrumbs: { values: [{ data: { headers: [["X-Api-Key", "k1"], ["Accept", "*/*"]] } }] },
    });
    const request = event.request as { headers: Record<string, string>; cookies: string[][] };
    assert.deepEqual(request.headers, { Authorization: "[Filtered]", Cookie: "[Filtered]", "Set-Cookie": "[Filtered]", Accept: "text/html" });
    assert.deepEqual(request.cookies, "[Filtered]");
    assert.deepEqual((event.breadcrumbs as { values: { data: { headers: string[][] } }[] }).values[0]!.data.headers, [
      ["X-Api-Key", "[Filtered]"],
      ["Accept", "*/*"],
    ]);
  });

  test("credit cards are Luhn-checked, in any string", () => {
    assert.equal(luhnValid("4111111111111111"), true);
    assert.equal(luhnValid("4111111111111112"), false);
    const { event, meta } = scrub({ message: "paid with 4111 1111 1111 1111, order 4111111111111112", extra: { note: "5555-5555-5555-4444" } });
    assert.equal(event.message, "paid with [Filtered], order 4111111111111112");
    assert.deepEqual((event.extra as { note: string }).note, "[Filtered]");
    assert.deepEqual((meta as { message: MetaTree }).message, { "": { rem: [["@creditcard:filter", "s", 10, 20]], len: 53 } });
  });

  test("bearer tokens, PEM keys, URL passwords and US SSNs inside strings", () => {
    const { event } = scrub({
      message: `call failed with Bearer abc.DEF-123_x= and key ${PEM}`,
      logentry: { message: "db postgres://app:s3cr3t@db:5432/x; ssn 123-45-6789" },
    });
    assert.equal(event.message, "call failed with Bearer [Filtered] and key -----BEGIN PRIVATE KEY-----\n[Filtered]\n-----END PRIVATE KEY-----");
    assert.equal((event.logentry as { message: string }).message, "db postgres://app:[Filtered]@db:5432/x; ssn [Filtered]");
  });

  test("key=value and JSON pairs in strings: query strings and request bodies sent as text", () => {
    const { event } = scrub({
      request: { query_string: "page=2&api_key=k123&q=x", data: '{"user":"bob","password":"hunter2","card":"x"}' },
      breadcrumbs: [{ message: "GET /login?token=abc&next=/" }],
    });
    const request = event.request as { query_string: string; data: string };
    assert.equal(request.query_string, "page=2&api_key=[Filtered]&q=x");
    assert.equal(request.data, '{"user":"bob","password":"[Filtered]","card":"x"}');
    assert.equal(JSON.parse(request.data).password, "[Filtered]");
    assert.equal((event.breadcrumbs as { message: string }[])[0]!.message, "GET /login?token=[Filtered]&next=/");
  });

  test("frame vars are scrubbed; the frame's code locations are not", () => {
    const { event } = scrub({
      exception: {
        values: [
          {
            stacktrace: {
              frames: [{ filename: "/srv/auth/token.py", function: "check_password", vars: { secret_token: "tok-1", n: 1 } }],
            },
          },
        ],
      },
    });
    const frame = (event.exception as { values: { stacktrace: { frames: Record<string, Json>[] } }[] }).values[0]!.stacktrace.frames[0]!;
    assert.equal(frame.filename, "/srv/auth/token.py");
    assert.equal(frame.function, "check_password");
    assert.deepEqual(frame.vars, { secret_token: "[Filtered]", n: 1 });
  });

  test("span attributes keep their {type, value} shape", () => {
    const { event } = scrub({ attributes: { "http.request.header.authorization": { type: "string", value: "Bearer x" }, ok: { type: "string", value: "y" } } });
    assert.deepEqual(event.attributes, { "http.request.header.authorization": { type: "string", value: "[Filtered]" }, ok: { type: "string", value: "y" } });
  });

  test("nothing to filter: no meta and the event is unchanged", () => {
    const original = { message: "hello", extra: { a: 1, b: "plain text here" }, tags: { env: "prod" } };
    const { event, meta } = scrub(original);
    assert.equal(meta, null);
    assert.deepEqual(event, original);
  });
});

describe("settings", () => {
  test("extra sensitive fields and safe fields", () => {
    const { event } = scrubWith({ dataScrubber: true, dataScrubberDefaults: true, sensitiveFields: ["mysekret"], safeFields: ["password"] }, {
      extra: { mysekret_value: "1", password: "kept", other: "x" },
    });
    assert.deepEqual(event.extra, { mysekret_value: "[Filtered]", password: "kept", other: "x" });
  });

  test("defaults off: only the extra fields", () => {
    const { event } = scrubWith({ dataScrubber: true, dataScrubberDefaults: false, sensitiveFields: ["foo"] }, { extra: { foo: "1", password: "2" } });
    assert.deepEqual(event.extra, { foo: "[Filtered]", password: "2" });
  });

  test("scrubbing off everywhere: no scrubber", () => {
    assert.equal(compileScrubber(effectivePrivacy({ ...DEFAULT_PRIVACY, dataScrubber: false }, { ...DEFAULT_PRIVACY, dataScrubber: false })), null);
  });

  test("an organisation's switch cannot be turned off by a project; lists add up", () => {
    const merged = effectivePrivacy(
      { ...DEFAULT_PRIVACY, scrubIPAddresses: true, sensitiveFields: ["a"] },
      { ...DEFAULT_PRIVACY, dataScrubber: false, sensitiveFields: ["b", "a"] },
    );
    assert.equal(merged.dataScrubber, true);
    assert.equal(merged.scrubIPAddresses, true);
    assert.deepEqual(merged.sensitiveFields, ["a", "b"]);
  });

  test("scrub IP addresses: the user's, the SDK's and REMOTE_ADDR are removed", () => {
    const scrubber = compileScrubber(effectivePrivacy(DEFAULT_PRIVACY, { ...DEFAULT_PRIVACY, scrubIPAddresses: true }));
    assert.equal(scrubber?.keepsClientIp, false);
    const event: { [key: string]: Json } = { user: { id: "1", ip_address: "{{auto}}" }, sdk: { client_ip: "1.2.3.4" }, request: { env: { REMOTE_ADDR: "5.6.7.8" } } };
    const meta = scrubber.scrub(event);
    assert.deepEqual(event, { user: { id: "1", ip_address: null }, sdk: { client_ip: null }, request: { env: { REMOTE_ADDR: null } } });
    assert.deepEqual((meta as { user: { ip_address: MetaTree } }).user.ip_address, { "": { rem: [["@anything:remove", "x"]], len: 8 } });
  });
});

describe("advanced rules", () => {
  const config = (value: unknown) => JSON.stringify(value);

  test("a pattern rule on a selector, hash and mask redactions", () => {
    const { event, meta } = scrubWith(
      {
        dataScrubber: false,
        relayPiiConfig: config({
          rules: { order: { type: "pattern", pattern: "ord-[0-9]+", redaction: { method: "hash" } } },
          applications: { "extra.*": ["order"], "$http.headers.x-api-key": ["@anything:mask"], "$string": ["@email:replace"] },
        }),
      },
      { extra: { note: "see ord-123 now" }, request: { headers: { "X-Api-Key": "abcd" } }, message: "mail bob@example.com", tags: { t: "ord-9" } },
    );
    assert.match((event.extra as { note: string }).note, /^see [0-9A-F]{40} now$/);
    assert.deepEqual((event.request as { headers: Record<string, string> }).headers, { "X-Api-Key": "****" });
    assert.equal(event.message, "mail [email]");
    assert.deepEqual(event.tags, { t: "ord-9" }, "the pattern applies to extra only");
    assert.deepEqual((meta as { extra: { note: MetaTree } }).extra.note, { "": { rem: [["order", "p", 4, 44]], len: 15 } });
  });

  test("remove and redact_pair", () => {
    const { event } = scrubWith(
      {
        dataScrubber: false,
        relayPiiConfig: config({
          rules: { pair: { type: "redact_pair", keyPattern: "^x-internal", redaction: { method: "remove" } } },
          applications: { "**": ["pair"], "$user.email": ["@anything:remove"] },
        }),
      },
      { extra: { "X-Internal-Id": "7", keep: "1" }, user: { email: "a@b.c", id: "1" } },
    );
    assert.deepEqual(event.extra, { "X-Internal-Id": null, keep: "1" });
    assert.deepEqual(event.user, { email: null, id: "1" });
  });

  test("a pathological pattern runs in linear time on RE2", () => {
    const { event } = scrubWith(
      { dataScrubber: false, relayPiiConfig: config({ rules: { bad: { type: "pattern", pattern: "(a+)+$" } }, applications: { $string: ["bad"] } }) },
      { message: `${"a".repeat(50_000)}b`, extra: { x: "aaaa" } },
    );
    assert.equal((event.extra as { x: string }).x, "[Filtered]");
    assert.equal(event.message, `${"a".repeat(50_000)}b`);
  });

  test("bad configs are refused with the problem named", () => {
    assert.throws(() => compilePiiConfig("{"), /not JSON/);
    assert.throws(() => compilePiiConfig(config({ rules: { r: { type: "pattern", pattern: "(a" } } })), (error: Error) => error instanceof PiiConfigError && /rule "r": invalid pattern/.test(error.message));
    assert.throws(() => compilePiiConfig(config({ rules: { r: { type: "pattern", pattern: "(a)\\1" } } })), /invalid pattern/);
    assert.throws(() => compilePiiConfig(config({ applications: { "extra.*": ["nope"] } })), /unknown rule "nope"/);
    assert.throws(() => compilePiiConfig(config({ applications: { "$nope.x": ["@anything"] } })), /unknown type "\$nope"/);
    assert.throws(() => compilePiiConfig(config({ applications: { "extra.*": ["@zzz:replace"] } })), /unknown rule "@zzz:replace"/);
    assert.throws(() => compilePiiConfig(config({ rules: { r: { type: "weird" } } })), /relayPiiConfig: rules\.r/);
  });
});

describe("selectors", () => {
  const matches = (text: string, path: string[], kind: "string" | "object" = "string") => selects(parseSelector(text), path, kind);

  test("paths, wildcards, parts and value types", () => {
    assert.equal(matches("extra.*", ["extra", "foo"]), true);
    assert.equal(matches("extra.*", ["extra", "foo", "bar"]), false);
    assert.equal(matches("extra.**", ["extra", "foo", "bar"]), true);
    assert.equal(matches("$http.headers.x-api-key", ["request", "headers", "x-api-key"]), true);
    assert.equal(matches("$frame.vars.*", ["exception", "values", "0", "stacktrace", "frames", "3", "vars", "token"]), true);
    assert.equal(matches("$string", ["a", "b"]), true);
    assert.equal(matches("$string", ["a"], "object"), false);
    assert.equal(matches("extra.'a.b'", ["extra", "a.b"]), true);
    assert.equal(matches("$string && !extra.*", ["extra", "x"]), false);
    assert.equal(matches("(extra.a || extra.b) && $string", ["extra", "b"]), true);
  });
});

describe("ingest items", () => {
  const context = (scrubber?: ItemContext["scrubber"]): ItemContext => ({
    projectId: "1", envelopeHeaders: {}, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: undefined, scrubber,
  });
  const eventRecord = (json: object, ctx = context()) => {
    const [record] = eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify(json)) }, ctx).records;
    assert.equal(record?.kind, "event");
    return record as Extract<IngestRecord, { kind: "event" }>;
  };

  test("the stored payload holds the scrubbed event and its _meta; the read event carries _meta", () => {
    const record = eventRecord({ message: "hi", extra: { password: "hunter2" }, breadcrumbs: [{ message: "x", data: { token: "t0k" } }] });
    assert.equal(record.payload.includes("hunter2"), false);
    assert.equal(record.payload.includes("t0k"), false);
    const read = storedEventOf(record.payload);
    assert.deepEqual(read.extra, { password: "[Filtered]" });
    assert.deepEqual(scrubbedValues(read._meta).map((value) => value.path), ["extra.password", "breadcrumbs.0.data.token"]);
  });

  test("nothing filtered: the SDK's own text is stored", () => {
    const json = { message: "hello there", extra: { a: 1 } };
    assert.ok(eventRecord(json).payload.endsWith(`"event":${JSON.stringify(json)}}`));
  });

  test("an SDK's own _meta is not stored: the scrubber never looked inside it", () => {
    const record = eventRecord({ message: "hi", _meta: { password: "in-meta-secret" } });
    assert.equal(record.payload.includes("in-meta-secret"), false);
  });

  test("the store endpoint scrubs too", () => {
    const result = processStoreBody(Buffer.from(JSON.stringify({ message: "hi", extra: { api_key: "k-123" } })), 1_000_000, context(), createItemRegistry({ maxEventBytes: 1_000_000 }));
    assert.ok(!(result instanceof Promise));
    const record = result.records.find((candidate) => candidate.kind === "event") as Extract<IngestRecord, { kind: "event" }>;
    assert.equal(record.payload.includes("k-123"), false);
  });

  test("scrubbing off for the project: stored as sent", () => {
    assert.ok(eventRecord({ message: "hi", extra: { password: "hunter2" } }, context(null)).payload.includes("hunter2"));
  });

  test("transactions: span data and the request are scrubbed", () => {
    const now = Date.now() / 1000;
    const [record] = transactionItem(1_000_000).process(
      {
        headers: { type: "transaction" },
        payload: Buffer.from(JSON.stringify({
          type: "transaction", transaction: "GET /", start_timestamp: now - 1, timestamp: now,
          contexts: { trace: { trace_id: "a".repeat(32), span_id: "b".repeat(16) } },
          request: { headers: { Cookie: "sid=tx-secret" } },
          spans: [{ span_id: "c".repeat(16), trace_id: "a".repeat(32), start_timestamp: now - 1, timestamp: now, data: { "http.request.header.authorization": "Bearer tx-bearer" } }],
        })),
      },
      context(),
    ).records;
    assert.equal(record?.kind, "transaction");
    const text = JSON.stringify(record);
    assert.equal(text.includes("tx-secret"), false);
    assert.equal(text.includes("tx-bearer"), false);
  });
});
