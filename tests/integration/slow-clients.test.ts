/**
 * Slow clients (slowloris) cannot exhaust the server: a client that drips its headers or its body is
 * cut off near the configured timeout, connections above the cap are closed at once, and a normal
 * client is served all the while.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, it } from "node:test";
import { readdressedEnvelope } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let port: number;

before(async () => {
  server = await startServer({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000", MAX_CONNECTIONS: "20" });
  port = Number(new URL(server.baseUrl).port);
});
after(async () => server.stop());

interface SlowClient {
  socket: net.Socket;
  /** Resolves with what the server sent before closing and the ms the socket lived. */
  closed: Promise<{ received: string; ms: number }>;
  stop(): void;
}

/** Connects and writes `first`, then one more byte of `drip` every 100 ms until closed. */
function slowClient(first: string, drip: string): SlowClient {
  const started = Date.now();
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  let timer: NodeJS.Timeout | undefined;
  socket.on("data", (chunk) => (received += chunk.toString()));
  socket.on("error", () => undefined);
  socket.once("connect", () => {
    socket.write(first);
    let index = 0;
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write(drip[index++ % drip.length]!);
    }, 100);
  });
  const closed = new Promise<{ received: string; ms: number }>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve({ received, ms: Date.now() - started });
    }),
  );
  return { socket, closed, stop: () => socket.destroy() };
}

const ingestPath = () => `/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}`;

async function normalRequestStatus(): Promise<number> {
  const { body } = readdressedEnvelope("node-message", { publicKey: server.publicKey });
  const response = await fetch(`${server.baseUrl}${ingestPath()}`, { method: "POST", body: new Uint8Array(body) });
  return response.status;
}

it("cuts off a client that drips its headers, answering 408", async () => {
  const client = slowClient(`POST ${ingestPath()} HTTP/1.1\r\nHost: localhost\r\n`, "X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n");
  assert.equal(await normalRequestStatus(), 200, "a normal client is served meanwhile");
  const { received, ms } = await client.closed;
  assert.match(received, /^HTTP\/1\.1 408 /);
  assert.ok(ms >= 900 && ms < 4000, `closed after ${ms} ms`);
});

it("cuts off a client that drips its body", async () => {
  const head = `POST ${ingestPath()} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n`;
  const client = slowClient(head, "{");
  assert.equal(await normalRequestStatus(), 200, "a normal client is served meanwhile");
  const { ms } = await client.closed;
  assert.ok(ms >= 1800 && ms < 6000, `closed after ${ms} ms`);
});

it("closes connections above the cap at once", async () => {
  const sockets = Array.from({ length: 30 }, () => slowClient("", " "));
  const closedEarly = await Promise.all(
    sockets.map((client) => Promise.race([client.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500))])),
  );
  const refused = closedEarly.filter(Boolean).length;
  for (const client of sockets) client.stop();
  assert.ok(refused >= 10, `at least the 10 connections above the cap of 20 were closed (${refused})`);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(await normalRequestStatus(), 200, "the server serves again once they are gone");
});
