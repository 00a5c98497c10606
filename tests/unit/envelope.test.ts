import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AppError } from "../../src/errors";
import { parseEnvelope, readEnvelopeHeader, type Envelope, type ItemHeaders } from "../../src/ingest/envelope";

/** Bodies are written as JS strings of bytes (latin1), like the table in docs/protocol.md §4.3. */
const bytes = (body: string) => Buffer.from(body, "latin1");
const parse = (body: string) => parseEnvelope(bytes(body));
const item = (headers: ItemHeaders, payload: string) => ({ headers, payload: bytes(payload) });
const EVENT_ID = "9ec79c33ec9942ab8353589fcb2e04dc";

function assertInvalid(body: string, cause: string | RegExp): void {
  assert.throws(
    () => parse(body),
    (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.deepEqual({ code: error.code, message: error.message, count: error.causes.length }, { code: "bad_request", message: "invalid event envelope", count: 1 });
      if (typeof cause === "string") assert.equal(error.causes[0], cause);
      else assert.match(error.causes[0] ?? "", cause);
      return true;
    },
  );
}

describe("parseEnvelope: byte-level cases of docs/protocol.md §4.3", () => {
  test("a lone header, with or without newline, has no items", () => {
    assert.deepEqual(parse("{}"), { headers: {}, items: [] });
    assert.deepEqual(parse("{}\n"), { headers: {}, items: [] });
  });

  test("two empty explicit-length items, with and without the final newline", () => {
    const body = `{"event_id":"${EVENT_ID}"}\n{"type":"attachment","length":0}\n\n{"type":"attachment","length":0}\n`;
    const expected: Envelope = {
      headers: { event_id: EVENT_ID },
      items: [item({ type: "attachment", length: 0 }, ""), item({ type: "attachment", length: 0 }, "")],
    };
    assert.deepEqual(parse(`${body}\n`), expected);
    assert.deepEqual(parse(body), expected);
  });

  test("implicit length runs to the next newline or EOF", () => {
    const expected = { headers: {}, items: [item({ type: "attachment" }, "helloworld")] };
    assert.deepEqual(parse('{}\n{"type":"attachment"}\nhelloworld\n'), expected);
    assert.deepEqual(parse('{}\n{"type":"attachment"}\nhelloworld'), expected);
  });

  test("a final item header without newline has an empty payload", () => {
    assert.deepEqual(parse('{}\n{"type":"attachment"}'), { headers: {}, items: [item({ type: "attachment" }, "")] });
  });

  test("a BOM and \\r\\n inside an explicit-length payload are payload bytes", () => {
    assert.deepEqual(parse('{}\n{"type":"attachment","length":10}\n\xef\xbb\xbfHello\r\n'), {
      headers: {},
      items: [item({ type: "attachment", length: 10 }, "\xef\xbb\xbfHello\r\n")],
    });
  });

  test("the byte after an explicit-length payload must be a newline", () => {
    assertInvalid('{}\n{"type":"attachment","length":5}\nhello world\n', "item 1: missing newline after payload");
  });

  test("a payload shorter than its length is an unexpected end of file", () => {
    assertInvalid('{}\n{"type":"attachment","length":20}\nhello\n', "item 1: unexpected end of file (length 20, 6 bytes left)");
  });

  test("unknown item types are kept", () => {
    assert.deepEqual(parse('{}\n{"type":"invalid_unknown"}\n{}\n'), { headers: {}, items: [item({ type: "invalid_unknown" }, "{}")] });
  });

  test("\\r right after the envelope header is invalid", () => {
    assertInvalid('{}\r\n{"type":"event"}\n{}', "envelope header: missing newline after header");
  });

  test("\\r right after an item header is invalid", () => {
    assertInvalid('{}\n{"type":"event"}\r\n{}', "item 1: missing newline after header");
  });

  test("a whitespace-only remainder after the last item is invalid", () => {
    assertInvalid('{}\n{"type":"event"}\n{}\n\n', "item 2: unexpected end of file");
    assertInvalid('{}\n{"type":"event"}\n{}\n \t', "item 2: unexpected end of file");
  });

  test("a blank line before a header is skipped as JSON whitespace, as Relay does", () => {
    assert.deepEqual(parse('\n{}\n\n{"type":"event"}\n{}'), { headers: {}, items: [item({ type: "event" }, "{}")] });
  });

  test("a header may span lines (JSON whitespace) and may hold braces and newlines escaped in strings", () => {
    assert.deepEqual(parse('{\n"a": "}\\n{"\n}\n{"type":\n"event"}\n{}'), {
      headers: { a: "}\n{" },
      items: [item({ type: "event" }, "{}")],
    });
  });

  test("an empty body is its own error", () => {
    assert.throws(() => parseEnvelope(Buffer.alloc(0)), { name: "AppError", code: "bad_request", message: "empty request body", causes: [] });
  });
});

describe("parseEnvelope: payloads", () => {
  test("the wire-format example of the module comment", () => {
    const body = `{"event_id":"${EVENT_ID}"}\n{"type":"event"}\n{"message":"hello"}\n{"type":"attachment","length":11,"filename":"a.txt"}\nhello\nworld`;
    assert.deepEqual(parse(body), {
      headers: { event_id: EVENT_ID },
      items: [item({ type: "event" }, '{"message":"hello"}'), item({ type: "attachment", length: 11, filename: "a.txt" }, "hello\nworld")],
    });
  });

  test("\\r inside an implicit-length payload is data", () => {
    assert.deepEqual(parse('{}\n{"type":"event"}\n{"a":1}\r\n'), { headers: {}, items: [item({ type: "event" }, '{"a":1}\r')] });
  });

  test("length counts bytes, not characters, and payloads may hold newlines and binary", () => {
    const body = Buffer.concat([
      Buffer.from('{}\n{"type":"attachment","length":2}\n'),
      Buffer.from("é\n"),
      Buffer.from('{"type":"attachment","length":4}\n'),
      Buffer.from([0x00, 0x0a, 0xff, 0x0a]),
    ]);
    assert.deepEqual(parseEnvelope(body), {
      headers: {},
      items: [
        { headers: { type: "attachment", length: 2 }, payload: Buffer.from("é") },
        { headers: { type: "attachment", length: 4 }, payload: Buffer.from([0x00, 0x0a, 0xff, 0x0a]) },
      ],
    });
  });

  test("payloads are views of the body, not copies", () => {
    const body = bytes('{}\n{"type":"event"}\n{"a":1}');
    const [first] = parseEnvelope(body).items;
    assert.equal(first?.payload.buffer, body.buffer);
    assert.equal(first?.payload.byteOffset, body.byteOffset + 20);
  });
});

describe("parseEnvelope: headers", () => {
  test("unknown envelope and item header keys are kept", () => {
    const body = `{"event_id":"${EVENT_ID}","sdk":{"name":"x","version":"1","extra":true},"trace":{"public_key":"k"}}\n{"type":"event","custom":[1,{"a":"}"}],"content_type":"application/json","filename":"f"}\n{}`;
    assert.deepEqual(parse(body), {
      headers: { event_id: EVENT_ID, sdk: { name: "x", version: "1", extra: true }, trace: { public_key: "k" } },
      items: [item({ type: "event", custom: [1, { a: "}" }], content_type: "application/json", filename: "f" }, "{}")],
    });
  });

  test("braces and escaped quotes inside header strings do not end the header", () => {
    assert.deepEqual(parse('{"x":"}{\\"\\\\"}\n{"type":"event"}\n{}'), { headers: { x: '}{"\\' }, items: [item({ type: "event" }, "{}")] });
  });

  test("a header may span lines, since Relay reads one JSON value", () => {
    assert.deepEqual(parse('{}\n{\n"type": "event"\n}\n{}'), { headers: {}, items: [item({ type: "event" }, "{}")] });
  });

  test("null for a known optional key means absent", () => {
    assert.deepEqual(parse('{"event_id":null,"sdk":null}\n{"type":"event","length":null}\n{}'), { headers: {}, items: [item({ type: "event" }, "{}")] });
  });

  test("hyphenated event ids are accepted", () => {
    const id = "9ec79c33-ec99-42ab-8353-589fcb2e04dc";
    assert.deepEqual(parse(`{"event_id":"${id}"}`), { headers: { event_id: id }, items: [] });
  });

  const invalidHeaders: [string, string, string | RegExp][] = [
    ["trailing space after the header", "{} \n", "envelope header: missing newline after header"],
    ["header is an array", "[]\n", "envelope header: header is not a JSON object"],
    ["header is a string", '"x"', "envelope header: header is not a JSON object"],
    ["BOM before the header", "\xef\xbb\xbf{}", "envelope header: header is not a JSON object"],
    ["unterminated header", '{"a":1', "envelope header: unexpected end of file in header"],
    ["malformed header JSON", '{"a":}', /^envelope header: invalid header JSON: /],
    ["invalid UTF-8 in a header", '{"a":"\xff"}', /^envelope header: invalid header JSON: /],
    ["event_id not a UUID", '{"event_id":"nope"}', "envelope header: event_id is not a UUID"],
    ["event_id not a string", '{"event_id":5}', "envelope header: event_id must be a string"],
    ["dsn not a string", '{"dsn":{}}', "envelope header: dsn must be a string"],
    ["sdk not an object", '{"sdk":"x"}', "envelope header: sdk must be an object"],
    ["sdk.version not a string", '{"sdk":{"version":1}}', "envelope header: sdk: version must be a string"],
    ["item header missing type", '{}\n{"length":0}\n', "item 1: missing item type"],
    ["item type not a string", '{}\n{"type":5}\n{}', "item 1: item type must be a string"],
    ["item header not an object", '{}\n{"type":"event"}\n{}\n[1]\n', "item 2: header is not a JSON object"],
    ["negative length", '{}\n{"type":"event","length":-1}\n', "item 1: length must be a non-negative integer"],
    ["fractional length", '{}\n{"type":"event","length":1.5}\n', "item 1: length must be a non-negative integer"],
    ["length as a string", '{}\n{"type":"event","length":"2"}\n{}', "item 1: length must be a non-negative integer"],
    ["filename not a string", '{}\n{"type":"attachment","filename":1}\n', "item 1: filename must be a string"],
  ];
  for (const [name, body, cause] of invalidHeaders) {
    test(`invalid: ${name}`, () => assertInvalid(body, cause));
  }
});

describe("readEnvelopeHeader", () => {
  test("parses only the first line", () => {
    assert.deepEqual(readEnvelopeHeader(bytes('{"dsn":"http://k@h/1"}\n{garbage')), { dsn: "http://k@h/1" });
    assert.deepEqual(readEnvelopeHeader(bytes("{}")), {});
    assert.deepEqual(readEnvelopeHeader(bytes("{}\r\n")), {});
  });

  test("returns null when the first line is not a JSON object", () => {
    for (const body of ["", "\n{}", "not json\n{}", "[1]\n", "null", '"x"', '{"a":\n1}', '{"a":"\xff"}']) {
      assert.equal(readEnvelopeHeader(bytes(body)), null, JSON.stringify(body));
    }
  });
});

describe("parseEnvelope: the item limit (MAX_ENVELOPE_ITEMS)", () => {
  const envelopeOf = (count: number, tail = "") => bytes(`{}\n${'{"type":"attachment","length":1}\nx\n'.repeat(count)}${tail}`);

  test("takes exactly the limit, by default 1000", () => {
    assert.equal(parseEnvelope(envelopeOf(1000)).items.length, 1000);
    assert.equal(parseEnvelope(envelopeOf(3), 3).items.length, 3);
  });

  test("refuses one item more with 413 naming the limit", () => {
    for (const [count, max] of [
      [1001, undefined],
      [4, 3],
    ] as const) {
      assert.throws(() => parseEnvelope(envelopeOf(count), max), {
        name: "AppError",
        code: "payload_too_large",
        message: `envelope exceeded size limits: more than ${max ?? 1000} items (MAX_ENVELOPE_ITEMS)`,
      });
    }
  });

  test("stops at the first item past the limit: what follows it is never read", () => {
    // Item 4 is not even valid framing; with a limit of 3 the answer is the limit, not a framing error.
    assert.throws(() => parseEnvelope(envelopeOf(3, "not json at all"), 3), { code: "payload_too_large" });
    assert.throws(() => parseEnvelope(envelopeOf(3, "not json at all"), 4), { code: "bad_request" });
  });
});
