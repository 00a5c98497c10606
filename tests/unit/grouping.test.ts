import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { GROUPING_CONFIG, groupEvent } from "../../src/processing/grouping";
import { parameterize } from "../../src/processing/grouping-components";
import { normalizeEvent } from "../../src/processing/normalize";
import type { GroupingResult, NormalizedEvent, StackFrame } from "../../src/processing/types";
import { captureEvent, initSentryCapture, Sentry, type CapturedEvent } from "../helpers/sentry-node-capture";

function normalized(captured: CapturedEvent): NormalizedEvent {
  return normalizeEvent(captured.payload, { receivedAt: Date.now(), sentAt: captured.header.sent_at, envelopeEventId: captured.header.event_id });
}

function group(raw: Record<string, unknown>): GroupingResult {
  return groupEvent(normalizeEvent(raw, { receivedAt: Date.now() }));
}

async function sdkGroup(capture: (scope: Sentry.Scope) => void): Promise<GroupingResult> {
  return groupEvent(normalized(await captureEvent(capture)));
}

function captureThrown(fn: () => void): (scope: Sentry.Scope) => void {
  return () => {
    try {
      fn();
    } catch (error) {
      Sentry.captureException(error);
    }
  };
}

function failPayment(reason: string): never {
  throw new Error(`payment failed: ${reason}`);
}

function failShipping(reason: string): never {
  throw new Error(`payment failed: ${reason}`);
}

function failWithCause(cause: Error): never {
  throw new Error("request failed", { cause });
}

describe("grouping real @sentry/node events", () => {
  before(() => initSentryCapture());

  test("two errors from the same code path with different messages share a hash", async () => {
    const results: GroupingResult[] = [];
    for (const reason of ["card declined", "timeout after 30s"]) results.push(await sdkGroup(captureThrown(() => failPayment(reason))));
    const [first, second] = results;
    assert.equal(first?.strategy, "stacktrace");
    assert.equal(first?.hash, second?.hash);
    assert.match(first?.hash ?? "", /^[0-9a-f]{32}$/);
    assert.equal(first?.config, GROUPING_CONFIG);
    assert.deepEqual(
      results.map((result) => [result.title, result.culprit, result.metadata]),
      ["card declined", "timeout after 30s"].map((reason) => [
        `Error: payment failed: ${reason}`,
        "grouping.test.ts in failPayment",
        { type: "Error", value: `payment failed: ${reason}`, filename: import.meta.filename, function: "failPayment" },
      ]),
    );
  });

  test("the same message thrown from a different function is a different group", async () => {
    const payment = await sdkGroup(captureThrown(() => failPayment("x")));
    const shipping = await sdkGroup(captureThrown(() => failShipping("x")));
    assert.equal(shipping.strategy, "stacktrace");
    assert.equal(shipping.eventType, "error");
    assert.notEqual(payment.hash, shipping.hash);
  });

  test("captureMessage with different numbers groups by message template", async () => {
    const results: GroupingResult[] = [];
    for (const count of [3, 1500]) results.push(await sdkGroup(() => Sentry.captureMessage(`queue has ${count} jobs pending`)));
    const [first, second] = results;
    assert.equal(first?.strategy, "message");
    assert.equal(first?.hash, second?.hash);
    assert.deepEqual(first?.metadata, { title: "queue has 3 jobs pending" });
    assert.equal(first?.eventType, "default");
    assert.equal(second?.title, "queue has 1500 jobs pending");
    const other = await sdkGroup(() => Sentry.captureMessage("queue has 3 workers idle"));
    assert.notEqual(other.hash, first?.hash);
  });

  test("parameterized messages group by their template", async () => {
    const a = await sdkGroup(() => Sentry.captureMessage(Sentry.parameterize`login failed for ${"ann"}`));
    const b = await sdkGroup(() => Sentry.captureMessage(Sentry.parameterize`login failed for ${"bob"}`));
    assert.equal(a.strategy, "message");
    assert.equal(a.hash, b.hash);
    assert.equal(b.title, "login failed for bob");
  });

  test('a custom fingerprint ["my-group"] joins otherwise different errors', async () => {
    const payment = await sdkGroup((scope) => {
      scope.setFingerprint(["my-group"]);
      captureThrown(() => failPayment("x"))(scope);
    });
    const shipping = await sdkGroup((scope) => {
      scope.setFingerprint(["my-group"]);
      captureThrown(() => failShipping("y"))(scope);
    });
    assert.equal(payment.strategy, "fingerprint");
    assert.equal(payment.hash, shipping.hash);
    assert.equal(payment.title, "Error: payment failed: x");
  });

  test('["{{ default }}", "x"] and ["{{ default }}", "y"] split the default group', async () => {
    // Same call path for all four: only the fingerprint differs.
    const withFingerprint = async (fingerprint?: string[]) =>
      sdkGroup((scope) => {
        if (fingerprint) scope.setFingerprint(fingerprint);
        captureThrown(() => failPayment("x"))(scope);
      });
    const x = await withFingerprint(["{{ default }}", "x"]);
    const y = await withFingerprint(["{{ default }}", "y"]);
    const plain = await withFingerprint();
    const defaultOnly = await withFingerprint(["{{ default }}"]);
    assert.equal(x.strategy, "fingerprint");
    assert.notEqual(x.hash, y.hash);
    assert.notEqual(x.hash, plain.hash);
    assert.deepEqual([defaultOnly.strategy, defaultOnly.hash], ["stacktrace", plain.hash]);
  });

  test("an error with a cause chain lists both, oldest first, and the cause type splits groups", async () => {
    const captured = await captureEvent(captureThrown(() => failWithCause(new TypeError("bad input"))));
    const event = normalized(captured);
    assert.deepEqual(
      event.exception.map((value) => [value.type, value.value]),
      [
        ["TypeError", "bad input"],
        ["Error", "request failed"],
      ],
    );
    const typeError = groupEvent(event);
    const rangeError = await sdkGroup(captureThrown(() => failWithCause(new RangeError("bad input"))));
    assert.equal(typeError.strategy, "stacktrace");
    assert.equal(typeError.title, "Error: request failed");
    assert.notEqual(typeError.hash, rangeError.hash);
  });
});

const frame = (fn: string, file: string, extra: Partial<StackFrame> = {}): StackFrame => ({ function: fn, filename: file, in_app: true, ...extra });

function errorWith(frames: StackFrame[], type = "Error", value = "boom", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { platform: "javascript", exception: [{ type, value, stacktrace: { frames }, ...extra }] };
}

describe("stack trace grouping", () => {
  const base = [frame("main", "app.js", { lineno: 10 }), frame("handle", "handler.js", { lineno: 20 })];

  test("line numbers and messages do not count; function and file do", () => {
    const moved = [frame("main", "app.js", { lineno: 11, colno: 3 }), frame("handle", "handler.js", { lineno: 99 })];
    assert.equal(group(errorWith(base)).hash, group(errorWith(moved, "Error", "other")).hash);
    assert.notEqual(group(errorWith(base)).hash, group(errorWith([base[0] as StackFrame, frame("handle2", "handler.js")])).hash);
    assert.notEqual(group(errorWith(base)).hash, group(errorWith([base[0] as StackFrame, frame("handle", "other.js")])).hash);
  });

  test("the exception type joins the hash unless the mechanism is synthetic", () => {
    assert.notEqual(group(errorWith(base, "TypeError")).hash, group(errorWith(base, "RangeError")).hash);
    const synthetic = { mechanism: { type: "generic", synthetic: true } };
    assert.equal(group(errorWith(base, "TypeError", "a", synthetic)).hash, group(errorWith(base, "RangeError", "a", synthetic)).hash);
  });

  test("only in-app frames count when any frame is in-app", () => {
    const withLibrary = (lib: string) => [frame("dispatch", lib, { in_app: false }), ...base];
    assert.equal(group(errorWith(withLibrary("express.js"))).hash, group(errorWith(withLibrary("koa.js"))).hash);
    const noneInApp = (lib: string) => [frame("dispatch", lib, { in_app: false }), frame("main", "app.js", { in_app: false })];
    assert.notEqual(group(errorWith(noneInApp("express.js"))).hash, group(errorWith(noneInApp("koa.js"))).hash);
  });

  test("browser-internal frames are dropped", () => {
    const chrome = [base[0] as StackFrame, frame("Array.forEach", "<anonymous>"), base[1] as StackFrame];
    const firefox = [base[0] as StackFrame, { function: "Array.forEach", in_app: true }, base[1] as StackFrame];
    assert.equal(group(errorWith(chrome)).hash, group(errorWith(base)).hash);
    assert.equal(group(errorWith(firefox)).hash, group(errorWith(base)).hash);
  });

  test("filenames lose directories, query strings and bundler hashes, and ignore case", () => {
    const built = (file: string) => errorWith([frame("render", file)]);
    const hash = group(built("https://cdn.test/static/js/main.3f2a1b9c.js?v=1")).hash;
    assert.equal(group(built("https://other.test/assets/MAIN.a1b2c3d4e5.js#x")).hash, hash);
    assert.equal(group(built("/srv/main.js")).hash, hash);
    assert.notEqual(group(built("/srv/vendor.js")).hash, hash);
    assert.equal(group(built("index-BqL5eD7n.js")).hash, group(built("index-Zx81KpQa.js")).hash);
  });

  test("function names lose async/new prefixes, aliases and Object./Module. receivers", () => {
    const named = (fn: string) => group(errorWith([frame(fn, "a.js")])).hash;
    assert.equal(named("async Object.load [as fetch]"), named("load"));
    assert.equal(named("Module.load"), named("load"));
    assert.equal(named("?"), named("<anonymous>"));
    assert.notEqual(named("load"), named("save"));
  });

  test("every exception in a chain with a stack trace counts", () => {
    const chain = (causeFn: string) => ({
      exception: [
        { type: "TypeError", value: "x", stacktrace: { frames: [frame(causeFn, "db.js")] } },
        { type: "Error", value: "y", stacktrace: { frames: base } },
      ],
    });
    assert.notEqual(group(chain("query")).hash, group(chain("connect")).hash);
  });
});

describe("exception and message grouping", () => {
  test("an exception without stack groups by type and parameterised value", () => {
    const result = group({ exception: [{ type: "KeyError", value: "missing key 42" }] });
    assert.equal(result.strategy, "exception");
    assert.equal(result.hash, group({ exception: [{ type: "KeyError", value: "missing key 7" }] }).hash);
    assert.notEqual(result.hash, group({ exception: [{ type: "IndexError", value: "missing key 7" }] }).hash);
    assert.deepEqual(result, {
      hash: result.hash,
      strategy: "exception",
      config: GROUPING_CONFIG,
      title: "KeyError: missing key 42",
      culprit: "",
      metadata: { type: "KeyError", value: "missing key 42" },
      eventType: "error",
    });
  });

  test("message parameters become placeholders", () => {
    const cases: [string, string][] = [
      ["took 250ms for 3 items", "took <int>ms for <int> items"],
      ["ratio 0.75 exceeded", "ratio <float> exceeded"],
      ["at 2024-05-01T10:20:30.123Z and 2024-05-02", "at <date> and <date>"],
      ["object 550e8400-e29b-41d4-a716-446655440000 gone", "object <uuid> gone"],
      ["mail to ann.lee+x@example.co.uk bounced", "mail to <email> bounced"],
      ["from 10.0.0.12 and 2001:db8:0:0:0:0:0:1", "from <ip> and <ip>"],
      ["pointer 0x7ffe12 and sha 9f86d081884c7d65", "pointer <hex> and sha <hex>"],
      ["user42 on v2 and deadbeef", "user42 on v2 and deadbeef"],
      ["first line 1\nsecond line 2", "first line <int>"],
    ];
    for (const [message, expected] of cases) assert.equal(parameterize(message), expected, message);
  });

  test("a message's first line and template decide its group", () => {
    const result = group({ message: "disk 91% full\ndetails 1" });
    assert.equal(result.strategy, "message");
    assert.equal(result.hash, group({ message: "disk 97% full\ndetails 2" }).hash);
    assert.equal(group({ logentry: { message: "hi %s", params: ["ann"] } }).hash, group({ logentry: { message: "hi %s", params: ["bob"] } }).hash);
    assert.deepEqual([result.title, result.culprit, result.metadata], ["disk 91% full", "", { title: "disk 91% full" }]);
  });

  test("titles are truncated to 200 characters", () => {
    const title = group({ message: "x".repeat(300) }).title;
    assert.equal(title.length, 200);
  });

  test("a typed synthetic exception next to a message is still an error, not the message's stack", () => {
    const result = group({
      message: "hello",
      exception: [{ type: "Error", value: "hello", mechanism: { type: "generic", synthetic: true }, stacktrace: { frames: [frame("f", "a.js")] } }],
    });
    assert.equal(result.strategy, "stacktrace");
    assert.equal(result.title, "Error: hello");
  });

  test("an event with nothing to group by falls back to one shared group", () => {
    const result = group({});
    assert.deepEqual(result, { hash: result.hash, strategy: "fallback", config: GROUPING_CONFIG, title: "<unlabeled event>", culprit: "", metadata: { title: "<unlabeled event>" }, eventType: "default" });
    assert.equal(group({ level: "info" }).hash, result.hash);
    assert.notEqual(group({ message: "x" }).hash, result.hash);
  });
});

describe("titles and culprits", () => {
  test("type only, value only, first line of value", () => {
    assert.equal(group({ exception: [{ type: "Panic" }] }).title, "Panic");
    assert.equal(group({ exception: [{ value: "just a value" }] }).title, "just a value");
    assert.equal(group({ exception: [{ type: "E", value: "line one\nline two" }] }).title, "E: line one");
  });

  test("the transaction wins; else the last in-app frame of the thrown exception", () => {
    const frames = [frame("main", "/srv/app.js", { module: "app" }), frame("helper", "/srv/lib.js", { in_app: false })];
    assert.equal(group({ ...errorWith(frames), transaction: "GET /orders" }).culprit, "GET /orders");
    assert.equal(group(errorWith(frames)).culprit, "app in main");
    assert.equal(group(errorWith([frame("?", "/srv/x.js")])).culprit, "/srv/x.js in ?");
    assert.deepEqual(group(errorWith(frames)).metadata, { type: "Error", value: "boom", filename: "/srv/app.js", function: "main" });
  });
});

describe("fingerprint variables", () => {
  const event = (fingerprint: string[], extra: Record<string, unknown> = {}) =>
    group({ fingerprint, transaction: "/a", tags: { shard: "7" }, exception: [{ type: "DbError", value: "v" }], ...extra });

  test("variables resolve from the event, case- and spacing-tolerant", () => {
    assert.equal(event(["{{ type }}"]).hash, event(["{{error.type}}"]).hash);
    assert.equal(event(["{{ TYPE }}"]).hash, event(["{{type}}"]).hash);
    assert.equal(event(["{{ type }}"]).hash, event(["{{ type }}"], { exception: [{ type: "DbError", value: "other" }] }).hash);
    assert.notEqual(event(["{{ type }}"]).hash, event(["{{ type }}"], { exception: [{ type: "IoError" }] }).hash);
    assert.notEqual(event(["{{ transaction }}"]).hash, event(["{{ transaction }}"], { transaction: "/b" }).hash);
    assert.notEqual(event(["{{ tags.shard }}"]).hash, event(["{{ tags.shard }}"], { tags: { shard: "8" } }).hash);
    assert.equal(event(["{{ level }}"]).strategy, "fingerprint");
  });

  test("a resolved variable never equals a literal with the same text", () => {
    assert.notEqual(event(["{{ type }}"]).hash, event(["DbError"]).hash);
    assert.notEqual(event(["{{ logger }}"]).hash, event(["{{ logger }}"], { logger: "db" }).hash);
  });

  test("stack variables use the crash frame", () => {
    const frames = (fn: string) => ({ exception: [{ type: "E", stacktrace: { frames: [frame("outer", "a.js"), frame(fn, "a.js")] } }] });
    assert.equal(group({ fingerprint: ["{{ function }}"], ...frames("f") }).hash, group({ fingerprint: ["{{ stack.function }}"], ...frames("f") }).hash);
    assert.notEqual(group({ fingerprint: ["{{ function }}"], ...frames("f") }).hash, group({ fingerprint: ["{{ function }}"], ...frames("g") }).hash);
  });
});
