/**
 * The direct reader's abuse limits over real sockets (issue 31): a request refused by admit() is
 * answered before its body is read, and its finish() runs once; the per-address connection cap
 * closes one address's extra connections while another address is served.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import net from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { DirectServer, type DirectAnswer } from "../../src/http/direct-server";
import { rawPost, takeAnswers, type RawAnswer } from "../helpers/raw-http";

let server: Server;
let direct: DirectServer;
let port: number;
/** Bodies the handler answered, and finish() calls, per test. */
let answered: string[] = [];
let finished = 0;

const answerOf = (status: number, text: string): DirectAnswer => ({ status, headers: { "Content-Length": Buffer.byteLength(text) }, body: text });

before(async () => {
  server = createServer((_req, res) => res.writeHead(200, { "Content-Length": 4 }).end("node"));
  direct = new DirectServer(server, {
    handlerFor: (head) => ({
      // /refuse: at once; /later-refuse: after a turn; /later-admit: admitted after a turn.
      admit: () =>
        head.target === "/refuse"
          ? answerOf(403, "refused")
          : head.target === "/later-refuse"
            ? Promise.resolve(answerOf(429, "later"))
            : head.target === "/later-admit"
              ? Promise.resolve(null)
              : null,
      answer: async (body) => {
        answered.push(body.toString());
        return answerOf(200, `ok ${body.length}`);
      },
      finish: () => void finished++,
    }),
    maxBodyBytes: 10 * 1024 * 1024,
    headersTimeoutMs: 2000,
    requestTimeoutMs: 3000,
    keepAliveTimeoutMs: 2000,
    maxConnectionsPerAddress: 3,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  direct.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answered = [];
  finished = 0;
});

function connect(localAddress = "127.0.0.1") {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  let received: Buffer = Buffer.alloc(0);
  const answers: RawAnswer[] = [];
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk: Buffer) => {
    const taken = takeAnswers(Buffer.concat([received, chunk]));
    answers.push(...taken.answers);
    received = taken.rest;
    waiters.splice(0).forEach((wake) => wake());
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    socket,
    closed,
    async answer(count: number): Promise<RawAnswer[]> {
      while (answers.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return answers.slice(0, count);
    },
  };
}

const head = (target: string, length: number) => `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${length}\r\n\r\n`;

describe("the direct reader's admit()", { timeout: 20_000 }, () => {
  for (const target of ["/refuse", "/later-refuse"]) {
    it(`${target}: answers before the body is sent, with Connection: close, and finishes the request once`, async () => {
      const client = connect();
      client.socket.write(head(target, 5 * 1024 * 1024));
      const [answer] = await client.answer(1);
      assert.equal(answer!.status, target === "/refuse" ? 403 : 429);
      assert.equal(answer!.headers.connection, "close");
      // The body the client sends now is dropped, not read into memory for a handler.
      client.socket.write(Buffer.alloc(512 * 1024));
      await client.closed;
      assert.deepEqual(answered, []);
      assert.equal(finished, 1);
    });
  }

  it("keeps the connection when the refused request's body had arrived whole", async () => {
    const client = connect();
    client.socket.write(Buffer.concat([rawPost("/refuse", "abc"), rawPost("/fine", "defg")]));
    const answers = await client.answer(2);
    assert.deepEqual(answers.map(({ status, body }) => [status, body]), [
      [403, "refused"],
      [200, "ok 4"],
    ]);
    assert.deepEqual(answered, ["defg"]);
    assert.equal(finished, 2);
    client.socket.destroy();
  });

  it("reads the body once an asynchronous admit() lets it through", async () => {
    const client = connect();
    client.socket.write(head("/later-admit", 6));
    setTimeout(() => client.socket.write("abcdef"), 50);
    const [answer] = await client.answer(1);
    assert.deepEqual([answer!.status, answer!.body], [200, "ok 6"]);
    client.socket.destroy();
    await client.closed;
    assert.equal(finished, 1);
  });

  it("finishes a request whose client went away in the middle of its body", async () => {
    const client = connect();
    client.socket.write(head("/fine", 1000) + "x".repeat(10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(finished, 1);
    assert.deepEqual(answered, []);
  });
});

describe("the per-address connection cap", { timeout: 20_000 }, () => {
  it("closes one address's connections past the cap at once and serves another address", async () => {
    const held = Array.from({ length: 3 }, () => connect("127.0.0.2"));
    await Promise.all(held.map((client) => new Promise((resolve) => client.socket.once("connect", resolve))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refusedBefore = direct.refusedConnections;
    const extra = connect("127.0.0.2");
    extra.socket.write(rawPost("/fine", "x"));
    await extra.closed;
    assert.equal(direct.refusedConnections, refusedBefore + 1);
    const other = connect("127.0.0.3");
    other.socket.write(rawPost("/fine", "yz"));
    const [answer] = await other.answer(1);
    assert.deepEqual([answer!.status, answer!.body], [200, "ok 2"]);
    for (const client of [...held, other]) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));
    // Closed connections are counted out: the address may connect again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = connect("127.0.0.2");
    again.socket.write(rawPost("/fine", "abc"));
    assert.equal((await again.answer(1))[0]!.status, 200);
    again.socket.destroy();
  });
});
