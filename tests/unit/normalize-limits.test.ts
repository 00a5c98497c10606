import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EVENT_LIMITS } from "../../src/processing/limits";
import { indexedEventOf, normalizeEvent, type NormalizeContext } from "../../src/processing/normalize";
import type { NormalizedEvent } from "../../src/processing/types";

const NOW = 1_700_000_000;
const ctx: NormalizeContext = { receivedAt: NOW * 1000 };

function normalize(raw: Record<string, unknown>): NormalizedEvent {
  return normalizeEvent(raw, ctx);
}

function frames(count: number): { function: string; filename: string }[] {
  return Array.from({ length: count }, (_, index) => ({ function: `f${index}`, filename: `file${index}.js` }));
}

describe("event limits (docs/security.md, stored event limits)", () => {
  test("10,000 tags keep the first 200 and count the rest as trimmed, also when indexed at ingest", () => {
    const tags = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`key${index}`, `value${index}`]));
    const event = normalize({ tags });
    const sdkTags = event.tags.filter(([key]) => key.startsWith("key"));
    assert.equal(sdkTags.length, 200);
    assert.ok(sdkTags.some(([key, value]) => key === "key199" && value === "value199"));
    assert.ok(!sdkTags.some(([key]) => key === "key200"));
    assert.equal(event.trimmed?.tags, 9_800);
    assert.equal(indexedEventOf({ tags }, ctx).tags.filter(([key]) => key.startsWith("key")).length, 200);
  });

  test("a 12,500-frame stack keeps its first 125 and last 125 frames and says which were omitted", () => {
    const event = normalize({ exception: { values: [{ type: "RangeError", stacktrace: { frames: frames(12_500) } }] } });
    const stack = event.exception[0]?.stacktrace;
    assert.ok(stack);
    assert.equal(stack.frames.length, 250);
    assert.equal(stack.frames[0]?.function, "f0");
    assert.equal(stack.frames[124]?.function, "f124");
    assert.equal(stack.frames[125]?.function, "f12375");
    assert.equal(stack.frames.at(-1)?.function, "f12499");
    assert.deepEqual(stack.frames_omitted, [125, 12_375]);
    assert.equal(event.trimmed?.["exception.values.0.stacktrace.frames"], 12_250);
  });

  test("a stack at the limit is kept whole, with no omission recorded", () => {
    const event = normalize({ exception: [{ type: "E", stacktrace: { frames: frames(250) } }] });
    assert.equal(event.exception[0]?.stacktrace?.frames.length, 250);
    assert.equal(event.exception[0]?.stacktrace?.frames_omitted, undefined);
    assert.equal(event.trimmed, undefined);
  });

  test("a long exception chain keeps its oldest and newest values; the thrown one stays last", () => {
    const values = Array.from({ length: 40 }, (_, index) => ({ type: `E${index}`, value: "x" }));
    const event = normalize({ exception: { values } });
    assert.equal(event.exception.length, EVENT_LIMITS.exceptions);
    assert.equal(event.exception[0]?.type, "E0");
    assert.equal(event.exception.at(-1)?.type, "E39");
    assert.equal(event.trimmed?.["exception.values"], 15);
  });

  test("breadcrumbs past 100 are counted as trimmed", () => {
    const event = normalize({ breadcrumbs: Array.from({ length: 150 }, (_, index) => ({ message: `c${index}` })) });
    assert.equal(event.breadcrumbs.length, 100);
    assert.equal(event.breadcrumbs[0]?.message, "c50");
    assert.equal(event.trimmed?.breadcrumbs, 50);
  });

  test("a data bag stops at its byte budget and counts the entries it left out", () => {
    const extra = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, "x".repeat(4000)]));
    const event = normalize({ extra });
    const kept = Object.keys(event.extra ?? {}).length;
    assert.ok(kept > 0 && kept < 20, `kept ${kept}`);
    assert.ok(JSON.stringify(event.extra).length <= EVENT_LIMITS.bagBytes + 8192);
    assert.equal(event.trimmed?.extra, 100 - kept);
  });

  test("contexts past the limit are counted; a __proto__ context or key stays data", () => {
    const contexts: Record<string, unknown> = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`c${index}`, { n: index }]));
    const event = normalize({ contexts });
    assert.equal(Object.keys(event.contexts).length, EVENT_LIMITS.contexts);
    assert.equal(event.trimmed?.contexts, 50);
    const raw = JSON.parse('{"contexts":{"__proto__":{"polluted":1}},"extra":{"__proto__":{"a":1}}}') as Record<string, unknown>;
    const parsed = normalize(raw);
    assert.deepEqual(Object.getOwnPropertyDescriptor(parsed.contexts, "__proto__")?.value, { polluted: 1 });
    assert.equal(Object.getPrototypeOf(parsed.contexts), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(parsed.extra, "__proto__")?.value, { a: 1 });
  });

  test("thousands of invalid tags leave at most 100 notes plus one count", () => {
    const tags = Array.from({ length: 5_000 }, () => ["", "x"]);
    const event = normalize({ tags });
    assert.equal(event.errors.length, EVENT_LIMITS.notes + 1);
    assert.deepEqual(event.errors.at(-1), { type: "too_many_notes", name: "errors", value: 4_900 });
  });

  test("request headers past the limit are counted", () => {
    const headers = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`x-h${index}`, "v"]));
    const event = normalize({ request: { url: "https://example.com/", headers } });
    assert.equal(event.request?.headers?.length, EVENT_LIMITS.headers);
    assert.equal(event.trimmed?.["request.headers"], 100);
  });
});

describe("frames over a whole event", () => {
  test("25 exceptions of 250 frames keep 500 frames, the newest exceptions' first", () => {
    const values = Array.from({ length: 25 }, (_, index) => ({ type: `E${index}`, stacktrace: { frames: frames(250) } }));
    const event = normalize({ exception: { values } });
    const counts = event.exception.map((value) => value.stacktrace?.frames.length ?? 0);
    assert.equal(counts.reduce((sum, count) => sum + count, 0), EVENT_LIMITS.framesPerEvent);
    assert.deepEqual(counts.slice(-2), [250, 250]);
    assert.equal(event.exception.at(-3)?.stacktrace, undefined);
    assert.equal(event.exception.length, 25, "exceptions without frames are still listed");
    assert.equal(event.trimmed?.["exception.values.0.stacktrace.frames"], 250);
  });
});

describe("contexts share one budget", () => {
  test("100 contexts of 200 entries keep at most ≈ 64 KiB between them", () => {
    const contexts = Object.fromEntries(
      Array.from({ length: 100 }, (_, c) => [`ctx${c}`, Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`key${k}`, k]))]),
    );
    const event = normalize({ contexts });
    const entries = Object.values(event.contexts).reduce((sum, context) => sum + Object.keys(context).length, 0);
    assert.ok(entries < 5_000, `${entries} entries kept`);
    assert.ok(JSON.stringify(event.contexts).length < EVENT_LIMITS.bagBytes * 1.5);
    const cut = Object.entries(event.trimmed ?? {}).filter(([name]) => name.startsWith("contexts.")).reduce((sum, [, n]) => sum + n, 0);
    assert.equal(entries + cut, 20_000);
  });
});
