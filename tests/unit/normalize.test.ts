import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { AppError } from "../../src/errors";
import { normalizeEvent, userKeyOf, type NormalizeContext } from "../../src/processing/normalize";
import type { NormalizedEvent } from "../../src/processing/types";
import { captureEvent, initSentryCapture, Sentry, type CapturedEvent } from "../helpers/sentry-node-capture";

/** 2023-11-14T22:13:20Z — round numbers keep the clock arithmetic exact. */
const NOW = 1_700_000_000;
const ctx: NormalizeContext = { receivedAt: NOW * 1000 };

function normalize(raw: Record<string, unknown>, extra: Partial<NormalizeContext> = {}): NormalizedEvent {
  return normalizeEvent(raw, { ...ctx, ...extra });
}

function fromSdk(event: CapturedEvent, receivedDelayMs: number, extra: Partial<NormalizeContext> = {}): NormalizedEvent {
  const sentAt = event.header.sent_at ?? "";
  return normalizeEvent(event.payload, {
    receivedAt: Date.parse(sentAt) + receivedDelayMs,
    sentAt,
    envelopeEventId: event.header.event_id,
    ...extra,
  });
}

function tagOf(event: NormalizedEvent, key: string): string | undefined {
  return event.tags.find(([name]) => name === key)?.[1];
}

function thrower(message: string): never {
  throw new Error(message, { cause: new TypeError("inner cause") });
}

describe("normalizeEvent with real @sentry/node events", () => {
  before(() => initSentryCapture({ release: "app@1.2.3", environment: "staging" }));

  test("a captured exception keeps ids, chain order, frames, user, tags and breadcrumbs", async () => {
    const captured = await captureEvent((scope) => {
      scope.setUser({ id: 7, ip_address: "{{auto}}" });
      scope.setTag("feature", "checkout");
      scope.addBreadcrumb({ message: "clicked pay", category: "ui.click" });
      try {
        thrower("outer failure");
      } catch (error) {
        Sentry.captureException(error);
      }
    });
    const payload = captured.payload;
    const event = fromSdk(captured, 2500, { clientIp: "203.0.113.9" });

    assert.equal(event.event_id, captured.header.event_id);
    assert.match(event.event_id, /^[0-9a-f]{32}$/);
    // sent_at is 2.5 s before receipt, so the SDK clock is taken to be 2.5 s behind.
    assert.ok(Math.abs(event.timestamp - (Number(payload.timestamp) + 2.5)) < 1e-6);
    assert.deepEqual(
      event.exception.map((value) => [value.type, value.value, value.mechanism?.type, value.mechanism?.parent_id]),
      [
        ["TypeError", "inner cause", "chained", 0],
        ["Error", "outer failure", "generic", undefined],
      ],
    );
    const frames = event.exception[1]?.stacktrace?.frames ?? [];
    const crash = frames.at(-1);
    assert.equal(crash?.function, "thrower");
    assert.equal(crash?.in_app, true);
    assert.ok(crash?.context_line?.includes("throw new Error(message"));
    assert.ok((crash?.pre_context?.length ?? 0) <= 5 && (crash?.post_context?.length ?? 0) <= 5);
    assert.deepEqual(event.user, { id: "7", ip_address: "203.0.113.9" });
    assert.equal(event.breadcrumbs.length, 1);
    assert.deepEqual({ ...event.breadcrumbs[0], timestamp: 0 }, { timestamp: 0, message: "clicked pay", category: "ui.click" });
    assert.deepEqual(event.sdk?.name, "sentry.javascript.node");
    assert.deepEqual(event.sdk?.packages, [{ name: "npm:@sentry/node", version: Sentry.SDK_VERSION }]);
    assert.deepEqual(event.errors, []);

    const contexts = payload.contexts as Record<string, Record<string, string>>;
    assert.deepEqual(event.tags, [
      ["environment", "staging"],
      ["feature", "checkout"],
      ["handled", "yes"],
      ["level", "error"],
      ["mechanism", "generic"],
      ["os", `${contexts.os?.name} ${contexts.os?.version?.trim()}`],
      ["os.name", String(contexts.os?.name)],
      ["release", "app@1.2.3"],
      ["runtime", `node ${process.version}`],
      ["runtime.name", "node"],
      ["server_name", String(payload.server_name)],
      ["user", "id:7"],
    ]);
  });

  test("a parameterized message becomes a logentry with the template and formatted text", async () => {
    const captured = await captureEvent(() => Sentry.captureMessage(Sentry.parameterize`user ${42} failed`, "warning"));
    const event = fromSdk(captured, 0);
    assert.deepEqual(event.logentry, { message: "user %s failed", params: [42], formatted: "user 42 failed" });
    assert.equal(event.level, "warning");
    assert.equal(event.platform, "node");
  });
});

describe("normalizeEvent on hand-written payloads", () => {
  test("a small payload normalises to exactly this event", () => {
    const event = normalize(
      {
        event_id: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
        timestamp: NOW - 10.5,
        level: "warn",
        message: "disk full",
        tags: [["shard", 3]],
        user: { email: "ann@example.com" },
        extra: { attempt: 2 },
      },
      { sentAt: "2023-11-14T22:13:19Z" },
    );
    assert.deepEqual(event, {
      event_id: "0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d",
      timestamp: NOW - 9.5,
      received: NOW,
      platform: "other",
      level: "warning",
      environment: "production",
      logentry: { message: "disk full", formatted: "disk full" },
      contexts: {},
      user: { email: "ann@example.com" },
      breadcrumbs: [],
      exception: [],
      extra: { attempt: 2 },
      errors: [],
      tags: [
        ["environment", "production"],
        ["level", "warning"],
        ["shard", "3"],
        ["user", "email:ann@example.com"],
      ],
    } satisfies NormalizedEvent);
  });

  test("only a non-object payload is refused, with a 400 AppError", () => {
    for (const raw of [null, [], "event", 42, undefined]) {
      assert.throws(
        () => normalizeEvent(raw, ctx),
        (error: unknown) => error instanceof AppError && error.code === "bad_request",
      );
    }
  });

  test("junk in every field never throws and falls back to defaults with notes", () => {
    const junk: unknown[] = [null, 0, -1, NaN, "", "x", true, [], [null, [1, [2]]], {}, { values: 5 }, { a: { b: null } }];
    const fields = ["event_id", "timestamp", "platform", "level", "environment", "logger", "transaction", "server_name",
      "release", "dist", "message", "logentry", "tags", "contexts", "user", "request", "breadcrumbs", "exception",
      "fingerprint", "sdk", "extra", "modules"];
    for (const field of fields) {
      for (const value of junk) {
        const event = normalize({ [field]: value });
        assert.match(event.event_id, /^[0-9a-f]{32}$/, `${field}=${JSON.stringify(value)}`);
        assert.equal(typeof event.timestamp, "number");
        assert.ok(Array.isArray(event.exception) && Array.isArray(event.breadcrumbs) && Array.isArray(event.tags));
      }
    }
    const event = normalize({ level: {}, timestamp: {}, exception: 5, tags: 7, user: [], sdk: 1, fingerprint: "x", platform: 5 });
    assert.deepEqual(
      { level: event.level, platform: event.platform, timestamp: event.timestamp, user: event.user, sdk: event.sdk },
      { level: "error", platform: "other", timestamp: NOW, user: undefined, sdk: undefined },
    );
    assert.deepEqual(event.errors.map((note) => `${note.type} ${note.name}`).sort(), [
      "invalid_data exception",
      "invalid_data fingerprint",
      "invalid_data level",
      "invalid_data platform",
      "invalid_data sdk",
      "invalid_data tags",
      "invalid_data timestamp",
      "invalid_data user",
    ]);
  });

  test("deeply nested data is trimmed, not rejected", () => {
    let nested: unknown = "bottom";
    for (let depth = 0; depth < 5000; depth++) nested = { next: nested };
    const event = normalize({ extra: { nested }, contexts: { deep: { nested } } });
    assert.equal(JSON.stringify(event.extra), '{"nested":{"next":{"next":{"next":{"next":{"next":"[trimmed]"}}}}}}');
    assert.ok(JSON.stringify(event.contexts).length < 200);
  });

  test("a fingerprint entry nested thousands deep is stringified after trimming, without overflowing the stack", () => {
    let nested: unknown = "bottom";
    for (let depth = 0; depth < 20000; depth++) nested = [nested];
    const event = normalize({ fingerprint: ["ok", nested] });
    assert.deepEqual(event.fingerprint, ["ok", '[[[[[["[trimmed]"]]]]]]']);
  });

  test("modules keep string versions, stringify numbers and booleans, drop the rest; a __proto__ name is data", () => {
    const raw = JSON.parse('{"modules":{"zod":"4.6.7","__proto__":"1.0.0","pg":8,"x":true,"y":null,"z":{"v":"1"},"1":"one"}}') as Record<string, unknown>;
    const { modules } = normalize(raw);
    assert.deepEqual(modules && Object.entries(modules), [["1", "one"], ["zod", "4.6.7"], ["__proto__", "1.0.0"], ["pg", "8"], ["x", "true"]]);
    assert.equal(Object.getPrototypeOf(modules), Object.prototype);
    assert.equal(normalize({ modules: { a: null, b: [] } }).modules, undefined);
  });

  test("a data bag keeps its first 200 entries, in order", () => {
    const extra = Object.fromEntries(Array.from({ length: 250 }, (_, index) => [`k${index}`, index]));
    assert.deepEqual(normalize({ extra }).extra, Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`k${index}`, index])));
  });

  test("a numeric timestamp too large to be finite is treated as missing", () => {
    const event = normalize({ timestamp: "9".repeat(400) });
    assert.equal(event.timestamp, ctx.receivedAt / 1000);
  });
});

describe("event_id", () => {
  const header = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
  const payload = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

  test("the envelope header wins over the payload", () => {
    assert.equal(normalize({ event_id: payload }, { envelopeEventId: header }).event_id, header);
  });

  test("an invalid header falls back to the payload; dashed upper-case UUIDs are normalised", () => {
    assert.equal(normalize({ event_id: payload }, { envelopeEventId: "nope" }).event_id, payload);
    assert.equal(normalize({ event_id: "BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB" }).event_id, payload);
  });

  test("missing ids are generated silently; invalid ones are replaced with a note", () => {
    const generated = normalize({});
    assert.match(generated.event_id, /^[0-9a-f]{32}$/);
    assert.deepEqual(generated.errors, []);
    assert.notEqual(normalize({}).event_id, generated.event_id);
    const invalid = normalize({ event_id: "xyz" });
    assert.match(invalid.event_id, /^[0-9a-f]{32}$/);
    assert.deepEqual(invalid.errors, [{ type: "invalid_data", name: "event_id", value: "xyz" }]);
  });
});

describe("timestamp", () => {
  const cases: [string, unknown, number][] = [
    ["unix seconds", NOW - 100.25, NOW - 100.25],
    ["numeric string", "1699999900.5", NOW - 99.5],
    ["RFC 3339 with Z", "2023-11-14T22:11:40Z", NOW - 100],
    ["RFC 3339 with micro-seconds", "2023-11-14T22:11:40.250000Z", NOW - 99.75],
    ["RFC 3339 with offset", "2023-11-14T23:11:40+01:00", NOW - 100],
    ["no offset means UTC", "2023-11-14T22:11:40", NOW - 100],
    ["missing", undefined, NOW],
  ];
  for (const [name, raw, expected] of cases) {
    test(name, () => {
      const event = normalize(raw === undefined ? {} : { timestamp: raw });
      assert.equal(event.timestamp, expected);
      assert.deepEqual(event.errors, []);
    });
  }

  test("client clock drift is corrected by received − sent_at", () => {
    // The client sent at 22:13:25 by its clock; we received at 22:13:20: its clock is 5 s fast.
    const event = normalize(
      { timestamp: NOW + 3.5, breadcrumbs: [{ timestamp: NOW + 1, message: "a" }, { message: "b" }] },
      { sentAt: "2023-11-14T22:13:25Z" },
    );
    assert.equal(event.timestamp, NOW - 1.5);
    assert.deepEqual(event.breadcrumbs, [{ timestamp: NOW - 4, message: "a" }, { timestamp: NOW - 1.5, message: "b" }]);
  });

  test("drift correction rescues a timestamp that only looked like the future", () => {
    const event = normalize({ timestamp: NOW + 3600 }, { sentAt: "2023-11-14T23:13:20Z" });
    assert.equal(event.timestamp, NOW);
    assert.deepEqual(event.errors, []);
  });

  test("more than 60 s in the future is replaced by the receive time", () => {
    assert.equal(normalize({ timestamp: NOW + 59 }).timestamp, NOW + 59);
    const event = normalize({ timestamp: NOW + 61 });
    assert.equal(event.timestamp, NOW);
    assert.deepEqual(event.errors, [{ type: "future_timestamp", name: "timestamp", value: NOW + 61 }]);
  });

  test("older than 30 days is replaced by the receive time", () => {
    const day = 24 * 3600;
    assert.equal(normalize({ timestamp: NOW - 29 * day }).timestamp, NOW - 29 * day);
    const event = normalize({ timestamp: NOW - 31 * day });
    assert.equal(event.timestamp, NOW);
    assert.deepEqual(event.errors, [{ type: "past_timestamp", name: "timestamp", value: NOW - 31 * day }]);
  });

  test("an unparseable timestamp or sent_at is not trusted", () => {
    const event = normalize({ timestamp: "yesterday" }, { sentAt: "garbage" });
    assert.equal(event.timestamp, NOW);
    assert.deepEqual(event.errors, [{ type: "invalid_data", name: "timestamp", value: "yesterday" }]);
    assert.equal(normalize({ timestamp: NOW - 1 }, { sentAt: "garbage" }).timestamp, NOW - 1);
  });
});

describe("level, platform, environment, release", () => {
  const levels: [unknown, string][] = [
    ["warn", "warning"],
    ["critical", "fatal"],
    ["log", "info"],
    [" ERROR ", "error"],
    ["debug", "debug"],
  ];
  for (const [raw, expected] of levels) {
    test(`level ${JSON.stringify(raw)} → ${expected}`, () => {
      const event = normalize({ level: raw });
      assert.equal(event.level, expected);
      assert.deepEqual(event.errors, []);
    });
  }

  test("unknown levels become error with a note; a missing level is error without one", () => {
    assert.deepEqual(normalize({ level: "loud" }).errors, [{ type: "invalid_data", name: "level", value: "loud" }]);
    assert.equal(normalize({ level: 40 }).level, "error");
    assert.deepEqual(normalize({}).errors, []);
  });

  test("defaults and invalid values", () => {
    const event = normalize({ platform: "JavaScript", environment: "prod/eu", release: "latest", dist: 12 });
    assert.deepEqual([event.platform, event.environment, event.release, event.dist], ["javascript", "production", undefined, "12"]);
    assert.deepEqual(event.errors, [
      { type: "invalid_data", name: "environment", value: "prod/eu" },
      { type: "invalid_data", name: "release", value: "latest" },
    ]);
  });
});

describe("tags", () => {
  test("object and pair-list forms give the same sorted pairs with derived tags", () => {
    const expected = [["a", "1"], ["b", "true"], ["environment", "production"], ["level", "error"]];
    assert.deepEqual(normalize({ tags: { b: true, a: 1 } }).tags, expected);
    assert.deepEqual(normalize({ tags: [["b", true], ["a", " 1 "]] }).tags, expected);
  });

  test("over-long, empty and non-scalar tags are dropped with notes; the first duplicate wins", () => {
    const event = normalize({
      tags: [["k".repeat(201), "v"], ["long", "v".repeat(201)], ["ok", "x"], ["ok", "y"], ["obj", { a: 1 }], ["", "v"], ["nil", null], "junk"],
    });
    assert.deepEqual(event.tags, [["environment", "production"], ["level", "error"], ["ok", "x"]]);
    assert.deepEqual(
      event.errors.map((note) => [note.type, note.name]),
      [["value_too_long", "tags"], ["value_too_long", "tags.long"], ["invalid_data", "tags.obj"], ["invalid_data", "tags.5"], ["invalid_data", "tags.nil"], ["invalid_data", "tags.7"]],
    );
  });

  test("SDK tags win over derived ones", () => {
    assert.deepEqual(normalize({ level: "info", tags: { level: "custom" } }).tags, [["environment", "production"], ["level", "custom"]]);
  });

  test("derived tags from event fields, contexts and the request", () => {
    const event = normalize({
      release: "r1",
      dist: "d1",
      logger: "auth",
      server_name: "web-1",
      transaction: "/checkout",
      request: { url: "https://shop.test/checkout?step=2#pay" },
      contexts: { browser: { name: "Firefox", version: "121.0" }, os: { name: "Windows", version: "10" }, runtime: { name: "CPython" }, device: { model: "Pixel 8" } },
      exception: [{ type: "Error", mechanism: { type: "onerror", handled: false } }],
      user: { username: "ann" },
    });
    assert.deepEqual(event.tags, [
      ["browser", "Firefox 121.0"],
      ["browser.name", "Firefox"],
      ["device", "Pixel 8"],
      ["dist", "d1"],
      ["environment", "production"],
      ["handled", "no"],
      ["level", "error"],
      ["logger", "auth"],
      ["mechanism", "onerror"],
      ["os", "Windows 10"],
      ["os.name", "Windows"],
      ["release", "r1"],
      ["runtime", "CPython"],
      ["runtime.name", "CPython"],
      ["server_name", "web-1"],
      ["transaction", "/checkout"],
      ["url", "https://shop.test/checkout"],
      ["user", "username:ann"],
    ]);
  });

  const chromeOnMac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36";

  test("browser and os come from the request User-Agent, else the sender's", () => {
    const fromHeader = normalize({ request: { headers: [["user-agent", chromeOnMac]] } });
    assert.deepEqual([tagOf(fromHeader, "browser"), tagOf(fromHeader, "browser.name"), tagOf(fromHeader, "os")], ["Chrome 120.0", "Chrome", "Mac OS X 10.15.7"]);
    const fromSender = normalize({}, { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1" });
    assert.deepEqual([tagOf(fromSender, "browser"), tagOf(fromSender, "os")], ["Mobile Safari 17.1", "iOS 17.1"]);
    const withContext = normalize({ contexts: { browser: { name: "Edge" } } }, { userAgent: chromeOnMac });
    assert.equal(tagOf(withContext, "browser"), "Edge");
    assert.equal(tagOf(normalize({}, { userAgent: "sentry.python/2.0" }), "browser"), undefined);
  });

  test("a real browser SDK event (captured fixture) gets Sentry's browser tags", () => {
    const file = path.resolve(import.meta.dirname, "../fixtures/envelopes/browser-uncaught-error.envelope");
    const [header, , payload] = readFileSync(file, "utf8").split("\n");
    const envelope = JSON.parse(header ?? "") as { event_id: string; sent_at: string };
    const event = normalizeEvent(JSON.parse(payload ?? ""), {
      receivedAt: Date.parse(envelope.sent_at),
      sentAt: envelope.sent_at,
      envelopeEventId: envelope.event_id,
      clientIp: "198.51.100.4",
    });
    assert.deepEqual(event.tags, [
      ["browser", "HeadlessChrome 156.0"],
      ["browser.name", "HeadlessChrome"],
      ["environment", "fixtures"],
      ["handled", "no"],
      ["level", "error"],
      ["mechanism", "auto.browser.browserapierrors.setTimeout"],
      ["os", "Linux"],
      ["os.name", "Linux"],
      ["release", "periscope-fixtures@1.0.0"],
      ["url", event.request?.url ?? ""],
      // sdk.settings.infer_ip is "auto" (sendDefaultPii): the sender's address becomes the user's.
      ["user", "ip:198.51.100.4"],
    ]);
    assert.deepEqual(event.errors, []);
  });
});

describe("message and logentry", () => {
  test("forms", () => {
    assert.deepEqual(normalize({ message: "plain" }).logentry, { message: "plain", formatted: "plain" });
    assert.deepEqual(normalize({ message: { message: "%s took %d%% of %s", params: ["job", 50] } }).logentry, {
      message: "%s took %d%% of %s",
      params: ["job", 50],
      formatted: "job took 50% of %s",
    });
    assert.deepEqual(normalize({ logentry: { message: "a %s", params: ["x"], formatted: "given" }, message: "ignored" }).logentry, {
      message: "a %s",
      params: ["x"],
      formatted: "given",
    });
    assert.deepEqual(normalize({ logentry: { formatted: "only formatted" } }).logentry, { message: "only formatted", formatted: "only formatted" });
  });

  test("long messages are trimmed, empty ones dropped", () => {
    const event = normalize({ message: "m".repeat(10_000) });
    assert.equal(event.logentry?.formatted.length, 8192);
    assert.ok(event.logentry?.formatted.endsWith("..."));
    assert.equal(normalize({ message: "   " }).logentry, undefined);
    assert.deepEqual(normalize({ logentry: { params: [1] } }).errors, [{ type: "invalid_data", name: "logentry" }]);
  });
});

describe("exception", () => {
  test("bare list; values without type and value are dropped; frames cleaned", () => {
    const event = normalize({
      exception: [
        { module: "only-module" },
        {
          type: "ValueError",
          stacktrace: {
            frames: [
              { lineno: 3 },
              {
                filename: "app.py",
                function: "run",
                lineno: -1,
                colno: 2.5,
                in_app: true,
                context_line: "x".repeat(1500),
                pre_context: ["1", "2", "3", "4", "5", "6", "7"],
                post_context: ["a", null, "c", "d", "e", "f"],
                instruction_addr: 4096,
              },
            ],
          },
          mechanism: { handled: "no" },
        },
      ],
    });
    assert.deepEqual(event.exception, [
      {
        type: "ValueError",
        stacktrace: {
          frames: [
            {
              filename: "app.py",
              function: "run",
              in_app: true,
              context_line: `${"x".repeat(997)}...`,
              pre_context: ["3", "4", "5", "6", "7"],
              post_context: ["a", "", "c", "d", "e"],
              instruction_addr: "0x1000",
            },
          ],
        },
        mechanism: { type: "generic" },
      },
    ]);
    assert.deepEqual(
      event.errors.map((note) => note.name),
      ["exception.values.0", "exception.values.1.stacktrace.frames"],
    );
  });

  test("{values: [...]} form keeps order oldest → newest", () => {
    const event = normalize({ exception: { values: [{ type: "A" }, { value: "b" }] } });
    assert.deepEqual(event.exception, [{ type: "A" }, { value: "b" }]);
  });
});

describe("breadcrumbs", () => {
  test("the last 100 are kept, ISO and numeric timestamps become seconds", () => {
    const crumbs = Array.from({ length: 150 }, (_, index) => ({ message: `crumb ${index}`, timestamp: NOW - 150 + index }));
    const event = normalize({ breadcrumbs: { values: crumbs } });
    assert.equal(event.breadcrumbs.length, 100);
    assert.deepEqual(event.breadcrumbs[0], { message: "crumb 50", timestamp: NOW - 100 });
    assert.deepEqual(event.breadcrumbs.at(-1), { message: "crumb 149", timestamp: NOW - 1 });
  });

  test("fields are cleaned and junk entries are noted", () => {
    const event = normalize({
      breadcrumbs: [{ timestamp: "2023-11-14T22:13:10.5Z", level: "warn", category: "http", data: { status: 500 } }, { level: "nope" }, 7],
    });
    assert.deepEqual(event.breadcrumbs, [
      { timestamp: NOW - 9.5, level: "warning", category: "http", data: { status: 500 } },
      { timestamp: NOW },
    ]);
    assert.deepEqual(event.errors, [{ type: "invalid_data", name: "breadcrumbs.values.2" }]);
  });
});

describe("user and request", () => {
  test("{{auto}} takes the client address, or is dropped without one", () => {
    assert.deepEqual(normalize({ user: { ip_address: "{{auto}}" } }, { clientIp: "2001:db8::1" }).user, { ip_address: "2001:db8::1" });
    const without = normalize({ user: { ip_address: "{{auto}}" } });
    assert.equal(without.user, undefined);
    assert.deepEqual(without.errors, []);
  });

  test("an invalid ip is dropped with a note; unknown user fields are not kept", () => {
    const event = normalize({ user: { id: "u1", ip_address: "not-an-ip", favourite: "blue" } });
    assert.deepEqual(event.user, { id: "u1" });
    assert.deepEqual(event.errors, [{ type: "invalid_data", name: "user.ip_address", value: "not-an-ip" }]);
  });

  test("without infer_ip=auto, no address is added", () => {
    assert.equal(normalize({ sdk: { name: "s", version: "1", settings: { infer_ip: "never" } } }, { clientIp: "192.0.2.1" }).user, undefined);
  });

  test("headers and cookies in every form", () => {
    const event = normalize({
      request: { url: "https://a.test/", method: "post", headers: { Accept: "text/html", "X-Count": 2 }, cookies: { session: "abc", theme: "dark" }, query_string: [["q", "a b"]] },
    });
    assert.deepEqual(event.request, {
      url: "https://a.test/",
      method: "POST",
      headers: [["Accept", "text/html"], ["X-Count", "2"]],
      query_string: "q=a+b",
      cookies: "session=abc; theme=dark",
    });
    assert.deepEqual(normalize({ request: { headers: [["A", "1"], "junk"], cookies: "a=1" } }).request, { headers: [["A", "1"]], cookies: "a=1" });
  });
});

describe("contexts, fingerprint, sdk", () => {
  test("only object contexts are kept", () => {
    const event = normalize({ contexts: { os: { name: "Linux" }, bad: "string", list: [1] } });
    assert.deepEqual(event.contexts, { os: { name: "Linux" } });
    assert.deepEqual(event.errors.map((note) => note.name), ["contexts.bad", "contexts.list"]);
  });

  test("fingerprint entries are stringified; non-arrays are dropped", () => {
    assert.deepEqual(normalize({ fingerprint: ["a", 1, true, null, { k: 1 }] }).fingerprint, ["a", "1", "true", "null", '{"k":1}']);
    assert.equal(normalize({ fingerprint: "a" }).fingerprint, undefined);
    assert.equal(normalize({ fingerprint: [] }).fingerprint, undefined);
  });

  test("sdk keeps name, version, string integrations and valid packages", () => {
    const event = normalize({ sdk: { name: "sentry.python", version: "2.1", integrations: ["a", 1], packages: [{ name: "p", version: "1" }, { name: "q" }], extra: 1 } });
    assert.deepEqual(event.sdk, { name: "sentry.python", version: "2.1", integrations: ["a"], packages: [{ name: "p", version: "1" }] });
    assert.equal(normalize({ sdk: { name: "no-version" } }).sdk, undefined);
  });
});

describe("userKeyOf", () => {
  test("prefers id, then email, username, ip; null without user info", () => {
    assert.equal(userKeyOf(normalize({ user: { id: 1, email: "a@b.c" } })), "id:1");
    assert.equal(userKeyOf(normalize({ user: { email: "a@b.c", username: "ann" } })), "email:a@b.c");
    assert.equal(userKeyOf(normalize({ user: { username: "ann", ip_address: "192.0.2.1" } })), "username:ann");
    assert.equal(userKeyOf(normalize({ user: { ip_address: "192.0.2.1" } })), "ip:192.0.2.1");
    assert.equal(userKeyOf(normalize({ user: { name: "Ann" } })), null);
    assert.equal(userKeyOf(normalize({})), null);
  });
});
