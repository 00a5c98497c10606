/**
 * The server reads SDKs' ingest requests straight off the socket (src/http/direct-server.ts) and
 * hands every other connection to node:http. Each request below goes once as the first request of
 * a fresh connection (the direct path) and once after a CORS preflight on another connection (so
 * node:http reads it): the two answers must be the same, status, headers and body.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, it } from "node:test";
import { gzipSync } from "node:zlib";
import { readdressedEnvelope } from "../helpers/fixtures";
import { rawPost, takeAnswers, type RawAnswer } from "../helpers/raw-http";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let port: number;
let stopped = false;

before(async () => {
  server = await startServer({ MAX_REQUEST_BYTES: "100000" });
  port = Number(new URL(server.baseUrl).port);
});
after(async () => {
  if (!stopped) await server.stop();
});

/** Sends `requests` on one connection, one after the other's answer, and returns the answers (Date left out). */
async function exchange(...requests: Buffer[]): Promise<RawAnswer[]> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  let received: Buffer = Buffer.alloc(0);
  const answers: RawAnswer[] = [];
  let wake: () => void = () => undefined;
  socket.on("data", (chunk: Buffer) => {
    const taken = takeAnswers(Buffer.concat([received, chunk]));
    for (const answer of taken.answers) delete answer.headers.date;
    answers.push(...taken.answers);
    received = taken.rest;
    wake();
  });
  for (const request of requests) {
    const before = answers.length;
    socket.write(request);
    while (answers.length === before) await new Promise<void>((resolve) => (wake = resolve));
  }
  socket.destroy();
  return answers;
}

/** A CORS preflight: not claimed by the direct path, so node:http takes the connection (and answers with a Content-Length). */
const preflight = () => Buffer.from(`OPTIONS /api/${server.projectId}/envelope/ HTTP/1.1\r\nHost: localhost\r\n\r\n`, "latin1");
const envelopePath = () => `/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`;
const event = (id: string) => readdressedEnvelope("node-message", { publicKey: server.publicKey }, id).body;

const cases: [string, (id: string) => Buffer, number, string | RegExp][] = [
  ["an SDK's envelope", (id) => rawPost(envelopePath(), event(id)), 200, /^\{"id":"[0-9a-f]{32}"\}$/],
  ["a gzip envelope", (id) => rawPost(envelopePath(), gzipSync(event(id)), { "Content-Encoding": "gzip" }), 200, /^\{"id":"[0-9a-f]{32}"\}$/],
  ["an unknown key", (id) => rawPost(`/api/${server.projectId}/envelope/?sentry_key=${"0".repeat(32)}`, event(id)), 403, /unknown or disabled DSN key/],
  ["a store request without credentials", () => rawPost(`/api/${server.projectId}/store/`, Buffer.from("{}")), 401, '{"detail":"missing authorization information"}'],
  ["an empty body", () => rawPost(envelopePath(), Buffer.alloc(0)), 400, '{"detail":"empty request body"}'],
  ["a truncated envelope", (id) => rawPost(envelopePath(), event(id).subarray(0, 150)), 400, /invalid/],
  ["zstd", (id) => rawPost(envelopePath(), event(id), { "Content-Encoding": "zstd" }), 415, /zstd/],
  ["a body over MAX_REQUEST_BYTES", () => rawPost(envelopePath(), Buffer.alloc(100_001, 0x20)), 413, '{"detail":"request body exceeds 100000 bytes"}'],
  ["a project id that is not a number", (id) => rawPost(`/api/abc/envelope/?sentry_key=${server.publicKey}`, event(id)), 400, '{"detail":"bad project path parameter"}'],
];

let eventIds = 0;
const nextId = () => (++eventIds).toString(16).padStart(32, "0");

for (const [what, make, status, body] of cases) {
  it(`answers ${what} the same on the direct path as on node:http's`, async () => {
    const [direct] = await exchange(make(nextId()));
    const [, throughNode] = await exchange(preflight(), make(nextId()));
    assert.equal(direct!.status, status);
    if (typeof body === "string") assert.equal(direct!.body, body);
    else assert.match(direct!.body, body);
    // The event ids differ; everything else is the same.
    const withoutIds = (answer: RawAnswer) => ({ ...answer, body: answer.body.replace(/[0-9a-f]{32}/g, "<id>") });
    assert.deepEqual(withoutIds(direct!), withoutIds(throughNode!));
    assert.equal(direct!.headers["access-control-allow-origin"], "*");
  });
}

it("answered the requests above on the direct path (its count, logged at shutdown)", async () => {
  await server.stop();
  stopped = true;
  const counts = /answered straight off the socket: (\d+); connections handed to node:http: (\d+)/.exec(server.output());
  // Directly: the first request of each case but the two node:http answers (body over the limit, bad project id).
  // Handed over: one connection per case for the preflight, and those two.
  assert.deepEqual(counts?.slice(1).map(Number), [cases.length - 2, cases.length + 2]);
});
