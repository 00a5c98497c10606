/**
 * The ingest door against a real server: every way a request can be wrong gets its status and a
 * message naming the problem, and good envelopes sent at the same time still land.
 */
import Database from "better-sqlite3";
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { readdressedEnvelope } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";
import { unpackPayload } from "../../src/storage/stored-payload";


let server: TestServer;
let db: Database.Database;

function envelope(name: string): { body: Buffer; eventId: string } {
  return readdressedEnvelope(name, { publicKey: server.publicKey, dsn: server.dsn });
}

function post(pathAndQuery: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}${pathAndQuery}`, {
    method: "POST",
    body: typeof body === "string" ? body : new Uint8Array(body),
    headers,
  });
}

const authed = () => `/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`;

async function expectError(response: Response, status: number, detail: string, causes?: string[]) {
  const body = (await response.json()) as unknown;
  assert.deepEqual({ status: response.status, body }, { status, body: causes ? { detail, causes } : { detail } });
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
}

/** The SDK's event as stored (large ones deflated: src/storage/stored-payload.ts). */
function storedEvent(eventId: string): { breadcrumbs: unknown[] } {
  const row = db.prepare<[string], { payload: string | Buffer }>("SELECT payload FROM events WHERE event_id = ?").get(eventId);
  assert.ok(row, `event ${eventId} is stored`);
  return (JSON.parse(unpackPayload(row.payload)) as { event: { breadcrumbs: unknown[] } }).event;
}

function stored(eventId: string): boolean {
  return db.prepare("SELECT 1 FROM events WHERE event_id = ?").get(eventId) !== undefined;
}

before(async () => {
  server = await startServer({ MAX_REQUEST_BYTES: "100000", MAX_ENVELOPE_BYTES: "200000", MAX_EVENT_BYTES: "50000" });
  db = new Database(path.join(server.dataDir, "periscope.sqlite"), { readonly: true });
});
after(async () => {
  db.close();
  await server.stop();
});

describe("accepted requests", () => {
  it("answers a CORS preflight as Relay does", async () => {
    const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/`, { method: "OPTIONS" });
    assert.equal(response.status, 200);
    assert.deepEqual(
      Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-"))),
      {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "POST",
        "access-control-allow-headers":
          "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, content-type, authentication, authorization, content-encoding, transfer-encoding",
        "access-control-expose-headers": "x-sentry-error, x-sentry-rate-limits, retry-after",
        "access-control-max-age": "3600",
      },
    );
  });

  it("stores an event authenticated by query, by X-Sentry-Auth and by the envelope header's dsn", async () => {
    const byQuery = envelope("node-error-cause");
    const response = await post(authed(), byQuery.body);
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: byQuery.eventId } });

    const byHeader = envelope("node-message");
    const headerResponse = await post(`/api/${server.projectId}/envelope/`, byHeader.body, {
      "X-Sentry-Auth": `Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=${server.publicKey}`,
    });
    assert.deepEqual(await headerResponse.json(), { id: byHeader.eventId });

    const tunnelled = envelope("browser-tunnel-uncaught-error");
    const tunnelResponse = await post(`/api/${server.projectId}/envelope/`, tunnelled.body, { "Content-Type": "text/plain;charset=UTF-8" });
    assert.deepEqual(await tunnelResponse.json(), { id: tunnelled.eventId });

    for (const id of [byQuery.eventId, byHeader.eventId, tunnelled.eventId]) assert.equal(stored(id), true, id);
  });

  it("decodes gzip, deflate and br bodies", async () => {
    for (const [encoding, compress] of [["gzip", gzipSync], ["deflate", deflateSync], ["br", brotliCompressSync]] as const) {
      const { body, eventId } = envelope("node-error-cause");
      const response = await post(authed(), compress(body), { "Content-Encoding": encoding });
      assert.deepEqual({ encoding, status: response.status, body: await response.json() }, { encoding, status: 200, body: { id: eventId } });
      assert.equal(stored(eventId), true);
    }
  });

  it("accepts the legacy store endpoint with a JSON event", async () => {
    const eventId = "b".repeat(32);
    const response = await post(`/api/${server.projectId}/store/?sentry_key=${server.publicKey}`, JSON.stringify({ event_id: eventId, message: "stored the old way" }));
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: eventId } });
    assert.equal(stored(eventId), true);
  });

  it("stores a large event with breadcrumbs whole from both endpoints, and refuses it broken with JSON.parse's message", async () => {
    const { body, eventId } = envelope("bench/node-medium-error");
    const response = await post(authed(), body);
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: eventId } });
    // Ingest reads it without its breadcrumbs (src/items/event-json.ts); the stored text keeps them.
    assert.equal(storedEvent(eventId).breadcrumbs.length, 90);

    const storeId = "d".repeat(32);
    const eventJson = body.toString("utf8").split("\n").find((line) => line.startsWith('{"exception"'))!.split(eventId).join(storeId);
    assert.ok(eventJson.length > 20_000);
    const store = `/api/${server.projectId}/store/?sentry_key=${server.publicKey}`;
    const storeResponse = await post(store, eventJson);
    assert.deepEqual({ status: storeResponse.status, body: await storeResponse.json() }, { status: 200, body: { id: storeId } });
    assert.equal(storedEvent(storeId).breadcrumbs.length, 90);

    const broken = eventJson.slice(0, -1);
    const parseError = (() => {
      try {
        JSON.parse(broken);
        return "parsed";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    await expectError(await post(store, broken), 400, `invalid JSON data: ${parseError}`);
  });

  it("accepts envelopes with sessions, client reports and unknown item types, answering without an id", async () => {
    for (const name of ["node-session-ok", "browser-client-report"]) {
      const response = await post(authed(), envelope(name).body);
      assert.deepEqual({ name, status: response.status, body: await response.json() }, { name, status: 200, body: {} });
    }
    const unknown = await post(authed(), '{}\n{"type":"something_new"}\n{"x":1}\n');
    assert.deepEqual({ status: unknown.status, body: await unknown.json() }, { status: 200, body: {} });
  });

  it("drops an event item that is not JSON without failing the envelope", async () => {
    const response = await post(authed(), '{"event_id":"cccccccccccccccccccccccccccccccc"}\n{"type":"event"}\n{not json\n');
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: "cccccccccccccccccccccccccccccccc" } });
    assert.equal(stored("cccccccccccccccccccccccccccccccc"), false);
  });
});

describe("refused requests", () => {
  it("refuses missing, multiple, malformed, unknown and mismatched credentials", async () => {
    const { body } = envelope("node-error-cause");
    const base = `/api/${server.projectId}/envelope/`;
    await expectError(await post(base, body), 401, "missing authorization information");
    await expectError(await post(base, "not json\n"), 401, "bad envelope authentication header");
    await expectError(
      await post(`${base}?sentry_key=${server.publicKey}`, body, { "X-Sentry-Auth": `Sentry sentry_key=${server.publicKey}` }),
      401,
      "multiple authorization payloads detected",
    );
    await expectError(await post(`${base}?sentry_version=7`, body), 401, "bad x-sentry-auth header");
    await expectError(await post(`${base}?sentry_key=nothex`, body), 400, "bad sentry DSN public key");
    await expectError(await post(`${base}?sentry_key=${server.publicKey}&sentry_version=8`, body), 400, "unsupported protocol version (8)");
    await expectError(await post(`${base}?sentry_key=${"f".repeat(32)}`, body), 403, "event submission rejected with_reason: ProjectId", [
      "unknown or disabled DSN key",
    ]);
    await expectError(await post(`/api/999/envelope/?sentry_key=${server.publicKey}`, body), 403, "event submission rejected with_reason: ProjectId", [
      `the key belongs to project ${server.projectId}, not 999`,
    ]);
    await expectError(await post(`/api/${server.projectId}/store/`, '{"message":"x"}'), 401, "missing authorization information");
  });

  it("refuses a request whose auth and envelope dsn disagree", async () => {
    const tunnelled = envelope("browser-tunnel-uncaught-error").body.toString("latin1");
    const otherKey = tunnelled.replace(server.publicKey, "e".repeat(32));
    await expectError(await post(authed(), otherKey), 400, "invalid event envelope", ["public key mismatch between envelope and request"]);
  });

  it("refuses bad paths, methods and empty or malformed bodies", async () => {
    await expectError(await post(`/api/abc/envelope/?sentry_key=${server.publicKey}`, "{}"), 400, "bad project path parameter");
    await expectError(await fetch(`${server.baseUrl}${authed()}`), 405, "method not allowed: GET (use POST)");
    await expectError(await post(authed(), ""), 400, "empty request body");
    const framing = await post(authed(), '{}\n{"type":"attachment","length":20}\nhello\n');
    assert.equal(framing.status, 400);
    const framingBody = (await framing.json()) as { detail: string; causes: string[] };
    assert.equal(framingBody.detail, "invalid event envelope");
    assert.equal(framingBody.causes.length, 1);
    assert.match(framingBody.causes[0]!, /unexpected end of file/);
    await expectError(await post(authed(), '{}\n{"type":"integration"}\n{}\n'), 400, "envelope contains internal items");
    const store = await post(`/api/${server.projectId}/store/?sentry_key=${server.publicKey}`, "[1,2]");
    await expectError(store, 400, "invalid JSON data: the event must be a JSON object");
  });

  it("refuses zstd, unknown and corrupt encodings", async () => {
    const { body } = envelope("node-error-cause");
    await expectError(
      await post(authed(), body, { "Content-Encoding": "zstd" }),
      415,
      "unsupported Content-Encoding: zstd (this server runs on Node.js 20, whose zlib has no zstd decoder; send gzip, deflate or br)",
    );
    const unknown = await post(authed(), body, { "Content-Encoding": "compress" });
    assert.equal(unknown.status, 415);
    assert.match(((await unknown.json()) as { detail: string }).detail, /compress/);
    const corrupt = await post(authed(), Buffer.from("definitely not gzip"), { "Content-Encoding": "gzip" });
    assert.equal(corrupt.status, 400);
    assert.match(((await corrupt.json()) as { detail: string }).detail, /^invalid gzip body/);
  });

  it("refuses bodies over the wire, decoded and event size limits with 413", async () => {
    const wire = await post(authed(), Buffer.alloc(150_000, 0x20));
    assert.equal(wire.status, 413);
    const bomb = await post(authed(), gzipSync(Buffer.alloc(5_000_000, 0x20)), { "Content-Encoding": "gzip" });
    assert.equal(bomb.status, 413);
    const big = envelope("node-big-event");
    await expectError(
      await post(authed(), gzipSync(big.body), { "Content-Encoding": "gzip" }),
      413,
      "envelope exceeded size limits for type 'event' (https://develop.sentry.dev/sdk/envelopes/#size-limits)",
    );
    assert.equal(stored(big.eventId), false);
  });

  it("lands every good envelope sent at the same time as bad ones", async () => {
    const good = Array.from({ length: 10 }, () => envelope("node-error-cause"));
    const bad = [
      post(authed(), ""),
      post(authed(), "garbage"),
      post(authed(), Buffer.from("x"), { "Content-Encoding": "zstd" }),
      post(`/api/${server.projectId}/envelope/?sentry_key=${"f".repeat(32)}`, envelope("node-message").body),
      post(authed(), Buffer.alloc(150_000, 0x20)),
    ];
    const responses = await Promise.all([...good.map((g) => post(authed(), g.body)), ...bad]);
    assert.deepEqual(responses.map((r) => r.status), [...good.map(() => 200), 400, 400, 415, 403, 413]);
    for (const { eventId } of good) assert.equal(stored(eventId), true);
  });
});
