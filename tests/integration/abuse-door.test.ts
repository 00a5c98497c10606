/**
 * What an anonymous client can cost the ingest door (issue 31, items 1, 2 and 5; docs/security.md
 * "Limits"), tried as an attacker would, over loopback against one real server:
 *
 *   - many connections pushing 20 MiB bodies with a bad or no key: the server's memory stays bounded,
 *     the ones past the buffer budget get 429 + Retry-After, and a good event is stored meanwhile;
 *   - a small gzip body with 524,288 items is refused with 413 naming MAX_ENVELOPE_ITEMS;
 *   - a flood of half-sent headers from one address leaves another address served.
 *
 * Linux routes all of 127.0.0.0/8 to the loopback interface, so a client socket bound to 127.0.0.2
 * (or .3) is a second client address against a server listening on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import net from "node:net";
import { after, before, it } from "node:test";
import { gzipSync } from "node:zlib";
import { readdressedEnvelope } from "../helpers/fixtures";
import { takeAnswers, type RawAnswer } from "../helpers/raw-http";
import { startServer, type TestServer } from "../helpers/server";

const MiB = 1024 * 1024;
/** What each attacking connection declares (MAX_REQUEST_BYTES' default) and how much of it it sends before it waits. */
const DECLARED_BYTES = 20 * MiB;
const SENT_BYTES = 8 * MiB;
const ATTACKERS = 40;
/** Buffered bytes the server may hold for all requests, and for one address. */
const BUFFERED = 96 * MiB;
const BUFFERED_PER_ADDRESS = 48 * MiB;
/**
 * How much the server's resident memory may grow while the attack holds: the per-address budget plus
 * room for what the refused connections' first chunks and the allocator cost. Without the limits
 * the attack holds ATTACKERS × SENT_BYTES = 320 MiB.
 */
const RSS_GROWTH_BOUND = 120 * MiB;
/** A connection cap low enough that the flood below would take every slot without a per-address cap. */
const MAX_CONNECTIONS = 300;
const PER_ADDRESS = 100;
const FLOOD = 320;

let server: TestServer;
let port: number;

before(async () => {
  server = await startServer({
    MAX_BUFFERED_BYTES: String(BUFFERED),
    MAX_BUFFERED_BYTES_PER_ADDRESS: String(BUFFERED_PER_ADDRESS),
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    HEADERS_TIMEOUT_MS: "30000",
    HEADERS_TIMEOUT_UNDER_PRESSURE_MS: "1000",
  });
  port = Number(new URL(server.baseUrl).port);
});
after(async () => server.stop());

function rssBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line![1]) * 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Held {
  socket: net.Socket;
  /** The answers received so far. */
  answers: RawAnswer[];
  closed: Promise<void>;
}

/** Connects from `localAddress`, writes `head` and then `body`, and keeps the socket open (never ends it). */
function hold(localAddress: string, head: string, body?: Buffer): Held {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  const answers: RawAnswer[] = [];
  let received: Buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    const taken = takeAnswers(Buffer.concat([received, chunk]));
    answers.push(...taken.answers);
    received = taken.rest;
  });
  socket.on("error", () => undefined);
  socket.once("connect", () => {
    socket.write(head);
    if (body) socket.write(body);
  });
  return { socket, answers, closed: new Promise((resolve) => socket.once("close", () => resolve())) };
}

async function goodEventStatus(localAddress?: string): Promise<{ status: number; eventId: string }> {
  const { body, eventId } = readdressedEnvelope("node-message", { publicKey: server.publicKey });
  const answer = await new Promise<RawAnswer>((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress });
    let received: Buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const [first] = takeAnswers(received).answers;
      if (first) {
        socket.destroy();
        resolve(first);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error("closed without an answer")));
    socket.once("connect", () => {
      const target = `/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`;
      socket.write(`POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
    });
  });
  return { status: answer.status, eventId };
}

it("keeps memory bounded while connections push 20 MiB bodies with bad or no keys, and stores a good event meanwhile", async (t) => {
  const rssBefore = rssBytes(server.pid);
  const chunk = Buffer.alloc(SENT_BYTES, 0x61);
  const unknownKey = "f".repeat(32);
  const attackers = Array.from({ length: ATTACKERS }, (_, index) => {
    const credentials = index % 2 === 0 ? `?sentry_key=${unknownKey}&sentry_version=7` : "";
    return hold("127.0.0.3", `POST /api/${server.projectId}/envelope/${credentials} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`, chunk);
  });
  // Long enough for every attacker's 8 MiB to arrive where the server reads it.
  await sleep(3000);
  const rssDuring = rssBytes(server.pid);
  const good = await goodEventStatus("127.0.0.1");

  const statuses = attackers.flatMap((attacker) => attacker.answers.map((answer) => answer.status));
  const limited = attackers.flatMap((attacker) => attacker.answers).filter((answer) => answer.status === 429);
  for (const attacker of attackers) attacker.socket.destroy();
  await Promise.all(attackers.map((attacker) => attacker.closed));
  await sleep(2000);
  const rssAfter = rssBytes(server.pid);
  t.diagnostic(`RSS before ${Math.round(rssBefore / MiB)} MiB, during ${Math.round(rssDuring / MiB)} MiB, 2 s after ${Math.round(rssAfter / MiB)} MiB`);

  assert.ok(
    rssDuring - rssBefore < RSS_GROWTH_BOUND,
    `resident memory grew by ${Math.round((rssDuring - rssBefore) / MiB)} MiB (bound ${RSS_GROWTH_BOUND / MiB} MiB)`,
  );
  assert.equal(statuses.filter((status) => status === 403).length, ATTACKERS / 2, `every unknown key is refused before its body: ${statuses.join(",")}`);
  assert.ok(limited.length > 0, `connections past the buffer budget are answered 429: ${statuses.join(",")}`);
  assert.equal(limited[0]!.headers["retry-after"], "1");
  assert.match(limited[0]!.body, /MAX_BUFFERED_BYTES/);
  assert.equal(good.status, 200, "a good event from another address is stored meanwhile");
  const stored = await server.api(`/api/0/projects/${server.organizationSlug}/${await projectSlug()}/events/${good.eventId}/`);
  assert.equal(stored.status, 200);
});

it("refuses an envelope past the item limit with 413 naming the limit", async () => {
  const header = `{"event_id":"${"a".repeat(32)}"}\n`;
  const item = '{"type":"attachment","length":1}\nx\n';
  const raw = Buffer.from(header + item.repeat(524_288));
  const body = gzipSync(raw);
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, {
    method: "POST",
    headers: { "Content-Encoding": "gzip" },
    body: new Uint8Array(body),
  });
  assert.equal(response.status, 413);
  const answer = (await response.json()) as { detail: string };
  assert.match(answer.detail, /more than 1000 items \(MAX_ENVELOPE_ITEMS\)/);
  assert.equal((await goodEventStatus()).status, 200, "an ordinary envelope still goes through");
});

it("leaves another address served while one address floods the server with half-sent headers", async () => {
  const flood = Array.from({ length: FLOOD }, () => hold("127.0.0.2", `POST /api/${server.projectId}/envelope/ HTTP/1.1\r\nHost: loc`));
  await Promise.race([Promise.all(flood.map((client) => new Promise((resolve) => client.socket.once("connect", resolve)))), sleep(5000)]);
  await sleep(300);
  try {
    assert.equal((await goodEventStatus("127.0.0.1")).status, 200, "another address is served during the flood");
    const api = await server.api("/api/0/organizations/");
    assert.equal(api.status, 200, "the API is served during the flood");
    const open = flood.filter((client) => !client.socket.destroyed).length;
    assert.ok(open <= PER_ADDRESS, `${open} of the flood's ${FLOOD} connections are open (cap ${PER_ADDRESS} per address)`);
  } finally {
    for (const client of flood) client.socket.destroy();
  }
});

it("closes half-sent headers sooner while more than half of the connection cap is open", async () => {
  // Two addresses at their cap together pass half of MAX_CONNECTIONS; HEADERS_TIMEOUT_MS is 30 s.
  const clients = ["127.0.0.4", "127.0.0.5"].flatMap((address) =>
    Array.from({ length: PER_ADDRESS }, () => hold(address, `POST /api/${server.projectId}/envelope/ HTTP/1.1\r\nHost: loc`)),
  );
  try {
    const closedSoon = await Promise.race([Promise.all(clients.map((client) => client.closed)).then(() => true), sleep(8000).then(() => false)]);
    const timedOut = clients.filter((client) => client.answers.some((answer) => answer.status === 408)).length;
    assert.ok(closedSoon, `every half-sent header was closed well before HEADERS_TIMEOUT_MS (${clients.filter((c) => !c.socket.destroyed).length} still open)`);
    assert.ok(timedOut > 0, "closed with 408");
  } finally {
    for (const client of clients) client.socket.destroy();
  }
});

async function projectSlug(): Promise<string> {
  const projects = (await (await server.api(`/api/0/organizations/${server.organizationSlug}/projects/`)).json()) as { id: string; slug: string }[];
  return projects.find((project) => project.id === server.projectId)!.slug;
}
