/**
 * Generates bad ingest requests — malformed, truncated, wrong-length, wrong-encoding, deeply
 * nested, huge-number, invalid UTF-8, compression bombs, and random mutations of real SDK
 * envelopes — plus valid envelopes to mix in. Deterministic for a seed, so a failure reproduces.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { readdressedEnvelope } from "../helpers/fixtures";

export interface FuzzCase {
  kind: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Set for valid envelopes: the event id that must be stored. */
  eventId?: string;
}

const fixtureDir = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");
const FIXTURES = readdirSync(fixtureDir)
  .filter((name) => name.endsWith(".envelope"))
  .map((name) => name.replace(/\.envelope$/, ""));
const EVENT_FIXTURES = ["node-error-cause", "node-message", "node-fingerprint", "browser-uncaught-error"];

/** mulberry32: small, fast, seedable. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const bigGzipBomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));

type CaseMaker = (rand: () => number, publicKey: string) => FuzzCase;

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function fixture(rand: () => number, publicKey: string): Buffer {
  return readdressedEnvelope(pick(rand, FIXTURES), { publicKey }).body;
}

const plain = (kind: string, body: Buffer | string, headers: Record<string, string> = {}): FuzzCase => ({
  kind,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  headers,
});

const makers: CaseMaker[] = [
  (rand, key) => {
    const body = fixture(rand, key);
    return plain("truncated", body.subarray(0, Math.floor(rand() * body.length)));
  },
  (rand, key) => {
    const body = Buffer.from(fixture(rand, key));
    for (let i = 0; i < 1 + rand() * 8; i++) body[Math.floor(rand() * body.length)] = Math.floor(rand() * 256);
    return plain("byte-flips", body);
  },
  (rand, key) => {
    const lines = fixture(rand, key).toString("latin1").split("\n");
    const at = 1 + Math.floor(rand() * Math.max(1, lines.length - 1));
    const header = pick(rand, ['{"type":"event","length":999999}', '{"type":"event","length":-1}', '{"type":"event","length":"7"}',
      '{"type":"event","length":1e400}', '{"type":"attachment","length":3}', '{"type":42}', '{"length":2}', "{}", "null", "[]"]);
    lines.splice(at, 0, header);
    return plain("wrong-item-header", Buffer.from(lines.join("\n"), "latin1"));
  },
  (rand, key) => plain("crlf", fixture(rand, key).toString("latin1").replace(/\n/g, rand() < 0.5 ? "\r\n" : "\n\n")),
  (rand) => plain("deep-nesting", `{}\n{"type":"event"}\n{"exception":${nested(50_000 + Math.floor(rand() * 50_000))}}`),
  () => plain("deep-header", `${nested(200_000)}\n{"type":"event"}\n{}`),
  (rand) => {
    const number = pick(rand, ["1e400", "-1e400", "18446744073709551616", "-0", "1e-400", "123456789012345678901234567890"]);
    return plain("huge-numbers", `{"event_id":"${"a".repeat(32)}","sent_at":${number}}\n{"type":"event"}\n{"timestamp":${number},"level":${number},"exception":{"values":[{"type":"E","value":${number},"stacktrace":{"frames":[{"lineno":${number},"colno":${number}}]}}]}}`);
  },
  (rand, key) => {
    const body = Buffer.from(fixture(rand, key));
    const invalid = pick(rand, [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28]]);
    const at = Math.floor(rand() * body.length);
    return plain("invalid-utf8", Buffer.concat([body.subarray(0, at), Buffer.from(invalid), body.subarray(at)]));
  },
  (rand, key) => plain("claims-gzip", fixture(rand, key), { "Content-Encoding": pick(rand, ["gzip", "br", "deflate"]) }),
  (rand, key) => plain("wrong-encoding", gzipSync(fixture(rand, key)), { "Content-Encoding": pick(rand, ["br", "deflate", "zstd", "compress", "gzip, gzip"]) }),
  () => plain("gzip-bomb", bigGzipBomb, { "Content-Encoding": "gzip" }),
  (rand, key) => plain("deflate-raw", deflateSync(fixture(rand, key)).subarray(2), { "Content-Encoding": "deflate" }),
  (rand) => {
    const bytes = Buffer.alloc(1 + Math.floor(rand() * 4096));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
    return plain("random-bytes", bytes);
  },
  (rand) => plain("empty-ish", pick(rand, ["", "\n", "\n\n", " ", "{", "{}\n\n", "{}\n{", '{"type":"event"}'])),
  (rand, key) => {
    const lines = fixture(rand, key).toString("latin1").split("\n");
    const at = Math.floor(rand() * lines.length);
    lines.splice(at, 1);
    return plain("line-dropped", Buffer.from(lines.join("\n"), "latin1"));
  },
  (rand, key) => {
    const text = fixture(rand, key).toString("latin1");
    return plain("duplicated", Buffer.from(text + "\n" + text.slice(text.indexOf("\n") + 1), "latin1"));
  },
  (rand) => plain("bad-json-types", `{"event_id":${pick(rand, ["1", "[]", "{}", "true", '"nope"'])}}\n{"type":"event"}\n${pick(rand, ['"string"', "[1,2]", "null", "1", '{"exception":"x","tags":7,"breadcrumbs":{"values":9},"user":[]}'])}`),
];

/**
 * The event with NUL in its tags, user, release, environment, transaction and message: valid JSON
 * ("\u0000"), so it must be stored, though PostgreSQL's text cannot hold NUL.
 */
function withNulInText(body: Buffer): Buffer {
  const [header, itemHeader, payload] = body.toString("utf8").split("\n");
  const event = JSON.parse(payload!) as Record<string, unknown>;
  Object.assign(event, {
    tags: { ...(event.tags as object | undefined), "nul\u0000key": "nul\u0000value" },
    user: { id: "nul\u0000user" },
    release: "nul\u0000release",
    environment: "nul\u0000environment",
    transaction: "nul\u0000transaction",
    message: "nul\u0000message",
  });
  return Buffer.from([header, itemHeader, JSON.stringify(event)].join("\n"));
}

/** A valid envelope with a fresh event id, compressed or not the way SDKs do, sometimes with NUL in its text. */
export function validCase(rand: () => number, publicKey: string): FuzzCase {
  const fixture = readdressedEnvelope(pick(rand, EVENT_FIXTURES), { publicKey });
  const { eventId } = fixture;
  const body = rand() < 0.25 ? withNulInText(fixture.body) : fixture.body;
  const encoding = pick(rand, ["", "", "gzip", "br"]);
  if (encoding === "gzip") return { kind: "valid", body: gzipSync(body), headers: { "Content-Encoding": "gzip" }, eventId };
  if (encoding === "br") return { kind: "valid", body: brotliCompressSync(body), headers: { "Content-Encoding": "br" }, eventId };
  return { kind: "valid", body, headers: {}, eventId };
}

/** `count` cases: about one in five valid, the rest bad. */
export function* fuzzCases(seed: number, count: number, publicKey: string): Generator<FuzzCase> {
  const rand = random(seed);
  for (let i = 0; i < count; i++) {
    yield rand() < 0.2 ? validCase(rand, publicKey) : pick(rand, makers)(rand, publicKey);
  }
}
