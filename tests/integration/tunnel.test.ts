/**
 * The /monitoring tunnel against real servers: envelopes for this region are ingested into the
 * internal project, envelopes for a configured region or the upstream DSN are forwarded to the
 * configured host only (a real node:http server stands in for the other region), and every attempt
 * to use it as an open proxy is refused with a status and a message that names the problem.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { readdressedEnvelope } from "../helpers/fixtures";
import { internalProject, type InternalProject } from "../helpers/monitoring";
import { startServer, type TestServer } from "../helpers/server";

interface Received {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Another region's server: records what reaches it and answers with a rate limit. */
async function startOtherRegion(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(429, { "Retry-After": "30", "X-Sentry-Rate-Limits": "30:error;transaction:project", "Content-Type": "application/json" });
      res.end('{"detail":"rate limited upstream"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function tunnelPost(server: TestServer, query: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}/monitoring?${query}`, {
    method: "POST",
    body: typeof body === "string" ? body : new Uint8Array(body),
    headers: { "Content-Type": "text/plain;charset=UTF-8", ...headers },
  });
}

async function expectRefusal(response: Response, status: number, detail: string, causes?: string[]) {
  assert.deepEqual({ status: response.status, body: await response.json() }, { status, body: causes ? { detail, causes } : { detail } });
}

let region: Awaited<ReturnType<typeof startOtherRegion>>;
let server: TestServer;
let internal: InternalProject;

before(async () => {
  region = await startOtherRegion();
  server = await startServer({ REGION: "eu", REGIONS: `us=${region.url}`, MAX_REQUEST_BYTES: "100000" });
  internal = await internalProject(server);
});
after(async () => {
  await server.stop();
  region.server.close();
});

const envelopeFor = (dsn: string) => readdressedEnvelope("browser-tunnel-uncaught-error", { publicKey: internal.publicKey, dsn });

describe("tunnel: this region", () => {
  it("ingests into the internal project with and without r naming this region", async () => {
    for (const query of [`o=${internal.organizationId}&p=${internal.projectId}`, `o=${internal.organizationId}&p=${internal.projectId}&r=eu`]) {
      const { body, eventId } = envelopeFor(internal.dsn);
      const response = await tunnelPost(server, query, body);
      assert.deepEqual({ query, status: response.status, body: await response.json() }, { query, status: 200, body: { id: eventId } });
      const event = await server.api(`/api/0/projects/default/periscope/events/${eventId}/`);
      assert.equal(event.status, 200, `event ${eventId} is stored in the internal project`);
    }
  });

  it("masks invite secrets in page URLs before storing, keeping declared item lengths valid", async () => {
    const secret = "ab".repeat(32);
    const eventId = "f".repeat(31) + "1";
    const payload = JSON.stringify({
      event_id: eventId,
      platform: "javascript",
      message: "invite page failed",
      request: { url: `${server.baseUrl}/invite/${secret}` },
      breadcrumbs: [{ category: "navigation", data: { from: "/", to: `/invite/${secret}` } }],
    });
    const body = [
      JSON.stringify({ event_id: eventId, dsn: internal.dsn }),
      JSON.stringify({ type: "event", length: Buffer.byteLength(payload) }),
      payload,
    ].join("\n");
    const response = await tunnelPost(server, `o=${internal.organizationId}&p=${internal.projectId}`, body);
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: eventId } });
    const stored = await server.api(`/api/0/projects/default/periscope/events/${eventId}/`);
    const text = await stored.text();
    assert.equal(stored.status, 200, text);
    assert.equal(text.includes(secret), false, "the secret is stored nowhere in the event");
    const masked = `/invite/${"[Filtered]".padEnd(64, "*")}`;
    const event = JSON.parse(text) as { entries: { type: string; data: { url?: string } }[] };
    assert.equal(event.entries.find((entry) => entry.type === "request")?.data.url, `${server.baseUrl}${masked}`);
    assert.ok(text.includes(masked), "breadcrumbs carry the masked path");
  });

  it("refuses a URL without o or p, with repeated or malformed values, or header-injection attempts", async () => {
    const { body } = envelopeFor(internal.dsn);
    await expectRefusal(await tunnelPost(server, `p=${internal.projectId}`, body), 400, "invalid tunnel URL: both 'o' and 'p' are required");
    await expectRefusal(await tunnelPost(server, "o=abc&p=1", body), 400, "invalid tunnel URL: 'o' must be a numeric organization id");
    await expectRefusal(
      await tunnelPost(server, `o=${internal.organizationId}&p=${internal.projectId}&p=${internal.projectId}`, body),
      400,
      "invalid tunnel URL: 'p' is given 2 times",
    );
    const injected = await tunnelPost(server, `o=1%0d%0aX-Injected:%20yes&p=${internal.projectId}`, body);
    assert.equal(injected.headers.get("x-injected"), null);
    await expectRefusal(injected, 400, "invalid tunnel URL: 'o' must be a numeric organization id");
    await expectRefusal(
      await tunnelPost(server, `o=${internal.organizationId}&p=${internal.projectId}&r=us%0d%0aHost:evil`, body),
      400,
      "invalid tunnel URL: 'r' must be a region name (lower-case letters, digits, '-')",
    );
  });

  it("refuses envelopes whose DSN does not match the URL, names another host, or has no DSN", async () => {
    const ok = `o=${internal.organizationId}&p=${internal.projectId}`;
    await expectRefusal(
      await tunnelPost(server, `o=${internal.organizationId}&p=999`, envelopeFor(internal.dsn).body),
      400,
      `invalid tunnel URL: p=999 does not match the envelope DSN's project ${internal.projectId}`,
    );
    await expectRefusal(
      await tunnelPost(server, `o=999&p=${internal.projectId}`, envelopeFor(internal.dsn).body),
      403,
      "event submission rejected with_reason: ProjectId",
      [`project ${internal.projectId} does not belong to organization 999`],
    );
    const evil = `http://${internal.publicKey}@evil.example.com/${internal.projectId}`;
    await expectRefusal(
      await tunnelPost(server, ok, envelopeFor(evil).body),
      403,
      `DSN not allowed: it names host evil.example.com, but this server is ${new URL(server.baseUrl).host}`,
    );
    await expectRefusal(await tunnelPost(server, ok, '{}\n{"type":"event"}\n{}'), 400, "invalid envelope: missing DSN in the envelope header");
    await expectRefusal(await tunnelPost(server, ok, "not an envelope"), 400, "invalid envelope: the first line must be the envelope header (a JSON object)");
    const unknownKey = readdressedEnvelope("browser-tunnel-uncaught-error", {
      publicKey: "f".repeat(32),
      dsn: internal.dsn.replace(internal.publicKey, "f".repeat(32)),
    });
    await expectRefusal(await tunnelPost(server, ok, unknownKey.body), 403, "event submission rejected with_reason: ProjectId", [
      "unknown or disabled DSN key",
    ]);
    const oversized = await tunnelPost(server, ok, Buffer.alloc(150_000, 0x20));
    assert.equal(oversized.status, 413);
  });
});

describe("test hooks", () => {
  it("are plain 404s when ENABLE_TEST_HOOKS is not set", async () => {
    for (const hook of ["client-error", "server-error", "drop-event"]) {
      const response = await fetch(`${server.baseUrl}/test-hooks/${hook}`);
      assert.deepEqual({ hook, status: response.status }, { hook, status: 404 });
    }
  });
});

describe("tunnel: other regions", () => {
  it("forwards the same bytes to the configured region and relays its status and rate limits", async () => {
    const regionDsn = `${region.url.replace("://", `://${internal.publicKey}@`)}/77`;
    const { body } = readdressedEnvelope("browser-tunnel-client-report", { publicKey: internal.publicKey, dsn: regionDsn });
    const response = await tunnelPost(server, "o=5&p=77&r=us", body);
    assert.deepEqual(
      {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        limits: response.headers.get("x-sentry-rate-limits"),
        body: await response.json(),
      },
      { status: 429, retryAfter: "30", limits: "30:error;transaction:project", body: { detail: "rate limited upstream" } },
    );
    const last = region.received.at(-1)!;
    assert.deepEqual({ url: last.url, same: last.body.equals(body) }, { url: "/api/77/envelope/", same: true });
  });

  it("refuses an unknown region and a DSN that names a host other than the region's", async () => {
    const before = region.received.length;
    await expectRefusal(
      await tunnelPost(server, `o=1&p=${internal.projectId}&r=ap`, envelopeFor(internal.dsn).body),
      400,
      'unknown region "ap": this server forwards only to "us"',
    );
    await expectRefusal(
      await tunnelPost(server, `o=1&p=${internal.projectId}&r=us`, envelopeFor(internal.dsn).body),
      403,
      `DSN not allowed: it names host ${new URL(server.baseUrl).host}, not region "us" (${new URL(region.url).host})`,
    );
    assert.equal(region.received.length, before, "nothing was forwarded");
  });
});

describe("tunnel: upstream self-monitoring", () => {
  it("forwards envelopes for the configured upstream DSN to that DSN's host only", async () => {
    const upstreamKey = "a".repeat(32);
    const upstreamDsn = `${region.url.replace("://", `://${upstreamKey}@`)}/42`;
    const upstream = await startServer({ SELF_MONITORING: "upstream", SELF_MONITORING_DSN: upstreamDsn, SELF_MONITORING_ORG_ID: "9" });
    try {
      const { body } = readdressedEnvelope("browser-tunnel-session-ok", { publicKey: upstreamKey, dsn: upstreamDsn });
      const response = await tunnelPost(upstream, "o=9&p=42", body);
      assert.equal(response.status, 429);
      const last = region.received.at(-1)!;
      assert.deepEqual(
        { url: last.url, same: last.body.equals(body) },
        { url: `/api/42/envelope/?sentry_key=${upstreamKey}&sentry_version=7`, same: true },
      );
      await expectRefusal(await tunnelPost(upstream, "o=8&p=42", body), 403, "DSN not allowed: o=8 is not the upstream organization");
      const elsewhere = readdressedEnvelope("browser-tunnel-session-ok", {
        publicKey: upstreamKey,
        dsn: `http://${upstreamKey}@evil.example.com/42`,
      });
      await expectRefusal(
        await tunnelPost(upstream, "o=9&p=42", elsewhere.body),
        403,
        `DSN not allowed: it names host evil.example.com, but this server is ${new URL(upstream.baseUrl).host}`,
      );
    } finally {
      await upstream.stop();
    }
  });
});
