/**
 * The direct reader in front of a real node:http server, over real sockets: what it answers itself,
 * what it hands to node:http (with every byte it had read), and the limits node:http would enforce.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import net from "node:net";
import { after, afterEach, before, describe, it } from "node:test";
import { DirectServer, type DirectAnswer } from "../../src/http/direct-server";
import type { RequestHead } from "../../src/http/request-head";
import { rawPost, takeAnswers, type RawAnswer } from "../helpers/raw-http";

interface Seen {
  head: RequestHead;
  body: string;
}

let server: Server;
let direct: DirectServer;
let port: number;
const seen: Seen[] = [];
/** Each answer of the direct handler waits for this (set by a test that needs an answer in flight). */
let answerGate: Promise<void> = Promise.resolve();

const directHandler = async (head: RequestHead, body: Buffer): Promise<DirectAnswer> => {
  seen.push({ head, body: body.toString() });
  await answerGate;
  const text = JSON.stringify({ direct: body.toString() });
  return { status: 200, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }, body: text };
};

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = JSON.stringify({ node: `${req.method} ${req.url} ${Buffer.concat(chunks).toString()}` });
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
    });
  });
  server.headersTimeout = 600;
  server.requestTimeout = 900;
  server.keepAliveTimeout = 700;
  direct = new DirectServer(server, {
    handlerFor: (head) => (head.method === "POST" && head.target.startsWith("/ingest") ? { answer: (body) => directHandler(head, body) } : null),
    maxBodyBytes: 1000,
    headersTimeoutMs: 600,
    requestTimeoutMs: 900,
    keepAliveTimeoutMs: 700,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  direct.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  seen.length = 0;
  direct.counts.answered = 0;
  direct.counts.handedOver = 0;
  answerGate = Promise.resolve();
});

/** A raw connection that collects answers and, once the server closes it, everything it received. */
function connect() {
  const socket = net.connect(port, "127.0.0.1");
  let received: Buffer = Buffer.alloc(0);
  let transcript = "";
  const answers: RawAnswer[] = [];
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk: Buffer) => {
    transcript += chunk.toString("latin1");
    const taken = takeAnswers(Buffer.concat([received, chunk]));
    answers.push(...taken.answers);
    received = taken.rest;
    waiters.splice(0).forEach((wake) => wake());
  });
  socket.on("error", () => undefined);
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(transcript)));
  return {
    socket,
    answers,
    closed,
    send: (bytes: string | Buffer) => socket.write(bytes),
    async answer(count: number): Promise<RawAnswer[]> {
      while (answers.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return answers.slice(0, count);
    },
  };
}

/** A request without its last `missing` bytes. */
const truncated = (bytes: Buffer, missing: number) => bytes.subarray(0, bytes.length - missing);

describe("the direct reader", { timeout: 30_000 }, () => {
  it("answers the requests it claims on one keep-alive connection, with node:http's Date and Connection headers", async () => {
    const client = connect();
    client.send(rawPost("/ingest/1", "first"));
    await client.answer(1);
    client.send(rawPost("/ingest/2?x=1", "second", { "User-Agent": "sdk" }));
    const answers = await client.answer(2);
    assert.deepEqual(answers.map(({ status, body }) => ({ status, body })), [
      { status: 200, body: '{"direct":"first"}' },
      { status: 200, body: '{"direct":"second"}' },
    ]);
    assert.deepEqual(Object.keys(answers[0]!.headers), ["content-type", "content-length", "date", "connection", "keep-alive"]);
    assert.equal(answers[0]!.headers.connection, "keep-alive");
    assert.equal(answers[0]!.headers["keep-alive"], "timeout=0");
    assert.match(answers[0]!.headers.date!, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.deepEqual(seen.map(({ head, body }) => ({ target: head.target, agent: head.headers["user-agent"] ?? null, body })), [
      { target: "/ingest/1", agent: null, body: "first" },
      { target: "/ingest/2?x=1", agent: "sdk", body: "second" },
    ]);
    assert.deepEqual(direct.counts, { answered: 2, handedOver: 0 });
    client.socket.destroy();
  });

  it("answers pipelined requests in order, and a request that arrives in many pieces", async () => {
    const client = connect();
    client.send(Buffer.concat([rawPost("/ingest/a", "one"), rawPost("/ingest/b", "two")]));
    await client.answer(2);
    const third = rawPost("/ingest/c", "three-bodies");
    for (const piece of [third.subarray(0, 10), third.subarray(10, 40), third.subarray(40, -5), third.subarray(-5)]) {
      client.send(piece);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answers = await client.answer(3);
    assert.deepEqual(answers.map(({ body }) => body), ['{"direct":"one"}', '{"direct":"two"}', '{"direct":"three-bodies"}']);
    assert.deepEqual(direct.counts, { answered: 3, handedOver: 0 });
    client.socket.destroy();
  });

  it("hands a connection to node:http at the first request it does not claim, with the bytes it had read", async () => {
    const client = connect();
    client.send(rawPost("/ingest/1", "mine"));
    await client.answer(1);
    // The unclaimed request and a claimed one behind it, in one write: both are node:http's now.
    client.send(Buffer.concat([Buffer.from("GET /page HTTP/1.1\r\nHost: localhost\r\n\r\n"), rawPost("/ingest/2", "later")]));
    const answers = await client.answer(3);
    assert.deepEqual(answers.map(({ body }) => body), ['{"direct":"mine"}', '{"node":"GET /page "}', '{"node":"POST /ingest/2 later"}']);
    assert.deepEqual(direct.counts, { answered: 1, handedOver: 1 });
    client.socket.destroy();
  });

  const handedOver: [string, string | Buffer, string | RegExp][] = [
    ["a chunked body", "POST /ingest/1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", '{"node":"POST /ingest/1 abc"}'],
    ["a body over the limit", rawPost("/ingest/1", "x".repeat(1001)), `{"node":"POST /ingest/1 ${"x".repeat(1001)}"}`],
    ["a head with bare LF line ends", "POST /ingest/1 HTTP/1.1\nHost: localhost\nContent-Length: 2\n\nhi", /^HTTP\/1\.1 (200|400) /],
    ["a head over 16 KB", `POST /ingest/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(17 * 1024)}\r\nContent-Length: 0\r\n\r\n`, /^HTTP\/1\.1 431 /],
  ];
  for (const [what, request, expected] of handedOver) {
    it(`leaves ${what} to node:http`, async () => {
      const client = connect();
      client.send(request);
      if (typeof expected === "string") {
        const [answer] = await client.answer(1);
        assert.equal(answer!.body, expected);
        client.socket.destroy();
      } else {
        client.socket.end();
        assert.match(await client.closed, expected);
      }
      assert.deepEqual(direct.counts, { answered: 0, handedOver: 1 });
      assert.equal(seen.length, 0);
    });
  }

  it("closes the connection after its answer when the client asks for it or has finished sending", async () => {
    const asked = connect();
    asked.send(rawPost("/ingest/1", "bye", { Connection: "close" }));
    const [answer] = await asked.answer(1);
    assert.equal(answer!.headers.connection, "close");
    await asked.closed;

    let open!: () => void;
    answerGate = new Promise((resolve) => (open = resolve));
    const halfClosed = connect();
    halfClosed.send(rawPost("/ingest/2", "last"));
    halfClosed.socket.end();
    // Answered once the server has seen the end of the client's side.
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    const [last] = await halfClosed.answer(1);
    assert.deepEqual({ body: last!.body, connection: last!.headers.connection }, { body: '{"direct":"last"}', connection: "close" });
    await halfClosed.closed;
  });

  it("answers 400 to a request the client stopped sending in the middle", async () => {
    const client = connect();
    client.send(truncated(rawPost("/ingest/1", "0123456789"), 4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.socket.end();
    assert.match(await client.closed, /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n$/);
    assert.equal(seen.length, 0);
  });

  it("answers 408 and closes when a head or a body takes longer than its timeout", async () => {
    const started = Date.now();
    const slowHead = connect();
    slowHead.send("POST /ingest/1 HTTP/1.1\r\nHost: local");
    const slowBody = connect();
    slowBody.send(truncated(rawPost("/ingest/1", "0123456789"), 3));
    const [head, body] = await Promise.all([slowHead.closed, slowBody.closed]);
    assert.deepEqual([head, body], ["HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n", "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"]);
    const ms = Date.now() - started;
    assert.ok(ms >= 900 && ms < 3000, `closed after ${ms} ms`);
  });

  it("closes a connection idle for longer than the keep-alive timeout", async () => {
    const client = connect();
    client.send(rawPost("/ingest/1", "x"));
    await client.answer(1);
    const idleFrom = Date.now();
    await client.closed;
    const ms = Date.now() - idleFrom;
    assert.ok(ms >= 700 && ms < 2500, `closed after ${ms} ms idle`);
  });

  /**
   * A client that sends `requests` pipelined requests and reads none of the answers (≈ 18 MB, more
   * than the kernel buffers), once the reader has stopped answering it; polled often, since the
   * reader cuts off a client that takes nothing for requestTimeoutMs (900 ms here).
   */
  async function unreadAnswers(requests: number): Promise<{ socket: net.Socket; answered: number }> {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.pause();
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(Buffer.concat(new Array<Buffer>(requests).fill(rawPost("/ingest/p", "x"))));
    let answered = -1;
    while (answered !== direct.counts.answered) {
      answered = direct.counts.answered;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { socket, answered };
  }

  it("stops reading from a client that sends without reading its answers, and goes on once it reads", async () => {
    const requests = 40_000;
    const { socket, answered } = await unreadAnswers(requests);
    // The reader must stop rather than hold all the answers.
    assert.ok(answered < requests, `answered ${answered} of ${requests} before the client read anything`);
    let received = 0;
    let tail = "";
    const statusLine = "HTTP/1.1 200 OK";
    socket.on("data", (chunk: Buffer) => {
      // A status line may be split between two chunks: the end of the last one is searched again.
      const text = tail + chunk.toString("latin1");
      received += text.split(statusLine).length - 1;
      const cut = text.lastIndexOf(statusLine);
      tail = text.slice(Math.max(cut + statusLine.length, text.length - statusLine.length + 1));
    });
    socket.resume();
    while (received < requests) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual({ received, answered: direct.counts.answered }, { received: requests, answered: requests });
    socket.destroy();
  });

  it("cuts off a client that takes none of its answers for longer than the request timeout", async () => {
    const requests = 40_000;
    const { socket, answered } = await unreadAnswers(requests);
    // Past the 900 ms limit and a sweep (every 250 ms here) after it, the client starts reading.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    let received = 0;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1").split("HTTP/1.1 200 OK").length - 1;
    });
    const closed = new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));
    socket.resume();
    const closedSoon = await Promise.race([closed, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
    socket.destroy();
    // Nothing was answered after the reader stopped; of the rest, at most what the kernel had taken arrives.
    assert.deepEqual({ closedSoon, answeredSince: direct.counts.answered - answered }, { closedSoon: true, answeredSince: 0 });
    assert.ok(received <= answered && answered < requests, `received ${received}, answered ${answered} of ${requests}`);
  });

  it("at shutdown closes idle connections at once and the others after their answer", async () => {
    const idle = connect();
    idle.send(rawPost("/ingest/1", "idle"));
    await idle.answer(1);
    let open!: () => void;
    answerGate = new Promise((resolve) => (open = resolve));
    const busy = connect();
    busy.send(rawPost("/ingest/2", "busy"));
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = Date.now();
    direct.closeIdleConnections();
    await idle.closed;
    // At once, not after the 700 ms of keep-alive.
    assert.ok(Date.now() - closing < 300, `the idle connection closed after ${Date.now() - closing} ms`);
    open();
    const [answer] = await busy.answer(1);
    assert.deepEqual({ body: answer!.body, connection: answer!.headers.connection }, { body: '{"direct":"busy"}', connection: "close" });
    await busy.closed;
    direct.closing = false;
  });
});
