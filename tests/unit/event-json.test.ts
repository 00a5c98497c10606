/**
 * The event JSON ingest reads (src/items/event-json.ts): large events with breadcrumbs go through
 * SQLite's JSON parser, which drops breadcrumbs, extra and modules. Whatever it accepts must be
 * exactly what `JSON.parse` accepts, and its fields exactly `JSON.parse`'s, or ingest would store
 * text the event page cannot read, or index an event by fields it does not have.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { processEventPayloadNow } from "../../src/items/event";
import { eventJsonOf, eventJsonWithoutDisplayParts } from "../../src/items/event-json";
import { contextFor, fixture, process } from "../helpers/items";

const medium = fixture("bench/node-medium-error");
const mediumItem = medium.items.find((item) => item.headers.type === "event")!;
const mediumText = mediumItem.payload.toString("utf8");

type Json = Record<string, unknown>;

/** What ingest should see: `JSON.parse` of the whole, without the parts only the event page reads. */
function withoutDisplayParts(text: string): Json {
  const { breadcrumbs, extra, modules, ...rest } = JSON.parse(text) as Json;
  void [breadcrumbs, extra, modules];
  return rest;
}

/** `JSON.parse`'s verdict: the object, or undefined for text that is not a JSON object. */
function parsedObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** A deterministic generator, so a failing mutation can be found again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

describe("event JSON for ingest", () => {
  it("drops breadcrumbs, extra and modules of a large event and keeps every other field as JSON.parse reads it", () => {
    const event = JSON.parse(mediumText) as Json;
    const text = JSON.stringify({ ...event, extra: { note: "x".repeat(100) }, modules: { express: "4.21.2" } });
    const payload = Buffer.from(text);
    assert.ok(Array.isArray(event.breadcrumbs) && event.breadcrumbs.length === 90);
    assert.deepEqual(eventJsonWithoutDisplayParts(payload), withoutDisplayParts(text));
    assert.deepEqual(eventJsonOf(payload, text), withoutDisplayParts(text));
    assert.deepEqual(Object.keys(eventJsonOf(mediumItem.payload, mediumText)!), [
      "exception", "event_id", "level", "platform", "contexts", "server_name", "timestamp", "environment", "release", "sdk", "tags", "user",
    ]);
  });

  it("parses small events and events without breadcrumbs whole", () => {
    const event = JSON.parse(mediumText) as Json;
    const small = JSON.stringify({ ...event, breadcrumbs: (event.breadcrumbs as unknown[]).slice(0, 2) });
    const noBreadcrumbs = JSON.stringify({ ...event, breadcrumbs: undefined, extra: { blob: "y".repeat(20_000) } });
    for (const text of [small, noBreadcrumbs]) {
      assert.equal(eventJsonWithoutDisplayParts(Buffer.from(text)), undefined);
      assert.deepEqual(eventJsonOf(Buffer.from(text), text), JSON.parse(text));
    }
  });

  it("leaves what SQLite will not read to JSON.parse: nesting deeper than 1,000, invalid UTF-8", () => {
    const deep = `${mediumText.slice(0, -1)},"extra":{"deep":${"[".repeat(1200)}${"]".repeat(1200)}}}`;
    assert.equal(eventJsonWithoutDisplayParts(Buffer.from(deep)), undefined);
    assert.deepEqual(eventJsonOf(Buffer.from(deep), deep), JSON.parse(deep));

    const at = mediumItem.payload.indexOf('"value":"') + '"value":"'.length;
    const broken = Buffer.concat([mediumItem.payload.subarray(0, at), Buffer.from([0xc3, 0x28]), mediumItem.payload.subarray(at)]);
    const decoded = broken.toString("utf8");
    assert.equal(eventJsonWithoutDisplayParts(broken), undefined);
    assert.deepEqual(eventJsonOf(broken, decoded), JSON.parse(decoded));
    assert.match(JSON.stringify(eventJsonOf(broken, decoded)), /"value":"\uFFFD\(/);
  });

  it("keeps the last of duplicate keys, as JSON.parse does, and leaves a repeated breadcrumbs key to it", () => {
    const twoLevels = `{"level":"info",${mediumText.slice(1, -1)},"level":"fatal"}`;
    assert.equal(eventJsonWithoutDisplayParts(Buffer.from(twoLevels))?.level, "fatal");
    assert.deepEqual(eventJsonWithoutDisplayParts(Buffer.from(twoLevels)), withoutDisplayParts(twoLevels));

    // SQLite's json_remove drops the first of them only.
    const twoBreadcrumbs = `${mediumText.slice(0, -1)},"breadcrumbs":[{"message":"again"}]}`;
    assert.equal(eventJsonWithoutDisplayParts(Buffer.from(twoBreadcrumbs)), undefined);
    assert.deepEqual(eventJsonOf(Buffer.from(twoBreadcrumbs), twoBreadcrumbs), JSON.parse(twoBreadcrumbs));
  });

  it("refuses JSON5 and every other text JSON.parse refuses", () => {
    const at = mediumText.indexOf('"breadcrumbs":[') + '"breadcrumbs":['.length;
    const edits = [
      (s: string) => `${s.slice(0, at)}{"a":1,},${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}'single',${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}/* comment */${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}0x1f,${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}{unquoted:1},${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}Infinity,NaN,${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}.5,+1,01,${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}"tab\there",${s.slice(at)}`,
      (s: string) => `${s.slice(0, at)}"\\x41",${s.slice(at)}`,
      (s: string) => `${s.slice(0, -1)},}`,
      (s: string) => `${s} trailing`,
      (s: string) => `\uFEFF${s}`,
      (s: string) => s.slice(0, -1),
    ];
    for (const edit of edits) {
      const text = edit(mediumText);
      assert.throws(() => JSON.parse(text), SyntaxError, text.slice(at - 20, at + 30));
      assert.equal(eventJsonWithoutDisplayParts(Buffer.from(text)), undefined, text.slice(at - 20, at + 30));
      assert.equal(eventJsonOf(Buffer.from(text), text), undefined);
    }
  });

  it("agrees with JSON.parse on 3,000 mutations of a real large event", () => {
    const random = seeded(5);
    const bytes = [..."{}[]\",:\\ \t\n0123456789eE+-.tfnulxa"].map((c) => c.charCodeAt(0)).concat([0x00, 0x1f, 0x7f]);
    const source = mediumItem.payload;
    const counts = { refusedByBoth: 0, takenAndEqual: 0, leftToJsonParse: 0 };
    for (let i = 0; i < 3000; i++) {
      const payload = Buffer.from(source);
      const kind = i % 3;
      const at = Math.floor(random() * payload.length);
      let mutated: Buffer;
      if (kind === 0) {
        payload[at] = bytes[Math.floor(random() * bytes.length)]!;
        mutated = payload;
      } else if (kind === 1) {
        mutated = Buffer.concat([payload.subarray(0, at), payload.subarray(at + 1)]);
      } else {
        mutated = payload.subarray(0, at);
      }
      const text = mutated.toString("utf8");
      const expected = parsedObject(text);
      const got = eventJsonWithoutDisplayParts(mutated);
      const label = `mutation ${i} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`;
      if (expected === undefined) {
        assert.equal(got, undefined, label);
        counts.refusedByBoth++;
      } else if (got === undefined) {
        // Only a mutation that renamed the breadcrumbs key takes the usual way (their size is unknown).
        assert.equal(mutated.includes('"breadcrumbs"'), false, label);
        counts.leftToJsonParse++;
      } else {
        assert.deepEqual(got, withoutDisplayParts(text), label);
        counts.takenAndEqual++;
      }
      assert.deepEqual(eventJsonOf(mutated, text), expected === undefined ? undefined : got ?? expected, label);
    }
    // Both verdicts must be exercised: a generator that only broke the JSON would prove little.
    assert.deepEqual(counts, { refusedByBoth: 1644, takenAndEqual: 1355, leftToJsonParse: 1 });
  });

  it("gives ingest the same records as the whole event parsed by JSON.parse", () => {
    const context = contextFor(medium);
    // With extra and modules too, so that ingest starting to read any of the dropped parts fails here.
    const event = { ...(JSON.parse(mediumText) as Json), extra: { cart: { items: 3 } }, modules: { express: "4.21.2" } };
    const text = JSON.stringify(event);
    const item = { headers: mediumItem.headers, payload: Buffer.from(text) };
    assert.notEqual(eventJsonWithoutDisplayParts(item.payload), undefined);
    const records = process(item, context).records;
    assert.equal(records.length, 2);
    assert.deepEqual(records, processEventPayloadNow(JSON.parse(text), text, context).records);
  });
});
