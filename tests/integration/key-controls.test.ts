/**
 * Key controls (issue 33) against a real server: the real `@sentry/node` SDK hits a key's rate
 * limit, gets 429 with `X-Sentry-Rate-Limits` naming the error categories and scope `key`, stops
 * sending errors and says so in its next client report; the refused events are counted
 * `rate_limited`. The project's allowed domains refuse browser traffic from other origins. On one
 * PostgreSQL, two processes share a key's limit, and a key disabled or revoked through one process
 * is refused by the other at once.
 *
 * The rate limits use a day-long window (windows are aligned to the epoch), so a window boundary
 * falls inside a run only at midnight UTC.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { OutcomeTotal } from "../../src/model";
import { readdressedEnvelope } from "../helpers/fixtures";
import { postgresForTests } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

const DAY = 86_400;

interface KeyJson {
  id: string;
  public: string;
  name: string;
  isActive: boolean;
  rateLimit: { window: number; count: number } | null;
  dsn: { public: string };
}

async function apiJson<T>(server: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await server.api(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as T };
}

async function newKey(server: TestServer, name: string, changes: Record<string, unknown> = {}): Promise<KeyJson> {
  const created = await apiJson<KeyJson>(server, "POST", "/api/0/projects/default/default/keys/", { name });
  assert.equal(created.status, 201);
  if (Object.keys(changes).length === 0) return created.body;
  const changed = await apiJson<KeyJson>(server, "PUT", `/api/0/projects/default/default/keys/${created.body.id}/`, changes);
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  return changed.body;
}

async function post(server: TestServer, publicKey: string, fixture = "node-message", headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, {
    method: "POST",
    headers,
    body: new Uint8Array(readdressedEnvelope(fixture, { publicKey }).body),
  });
  await response.arrayBuffer();
  return response;
}

const outcomesOf = (server: TestServer, since: number) =>
  server.withStorage((storage) => storage.outcomes.totals(server.projectId, since)) as Promise<OutcomeTotal[]>;

function quantity(totals: OutcomeTotal[], outcome: string, category: string, reason: string | null): number {
  return totals.filter((row) => row.outcome === outcome && row.category === category && row.reason === reason).reduce((sum, row) => sum + row.quantity, 0);
}

describe("key controls on one process (SQLite)", () => {
  let server: TestServer;
  const since = Date.now() - 60_000;

  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await Sentry.close(2000);
    await server?.stop();
  });

  it("changes a key through Sentry's key API and refuses bad input by name", async () => {
    const key = await newKey(server, "api");
    const path = `/api/0/projects/default/default/keys/${key.id}/`;
    const changed = await apiJson<KeyJson>(server, "PUT", path, { name: "renamed", isActive: false, rateLimit: { window: 60, count: 10 } });
    assert.deepEqual([changed.status, changed.body.name, changed.body.isActive, changed.body.rateLimit], [200, "renamed", false, { window: 60, count: 10 }]);
    assert.deepEqual((await apiJson<KeyJson>(server, "GET", path)).body.rateLimit, { window: 60, count: 10 });
    const cleared = await apiJson<KeyJson>(server, "PUT", path, { rateLimit: { window: null, count: null } });
    assert.equal(cleared.body.rateLimit, null);
    const bad = await apiJson<{ detail: string; causes?: string[] }>(server, "PUT", path, { rateLimit: { window: 0, count: 5 } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /window.*at least 1 second/);
    assert.equal((await apiJson(server, "PUT", `/api/0/projects/default/default/keys/${"0".repeat(32)}/`, { name: "x" })).status, 404);
    assert.equal((await apiJson(server, "DELETE", path)).status, 204);
    assert.equal((await apiJson(server, "GET", path)).status, 404);
    assert.equal((await post(server, key.public)).status, 403);
  });

  it("refuses a disabled key at once and accepts it again when enabled", async () => {
    const key = await newKey(server, "toggle");
    assert.equal((await post(server, key.public)).status, 200);
    await apiJson(server, "PUT", `/api/0/projects/default/default/keys/${key.id}/`, { isActive: false });
    const refused = await post(server, key.public);
    assert.equal(refused.status, 403);
    assert.match(refused.headers.get("x-sentry-error") ?? "", /rejected/);
    await apiJson(server, "PUT", `/api/0/projects/default/default/keys/${key.id}/`, { isActive: true });
    assert.equal((await post(server, key.public)).status, 200);
  });

  it("stops the real SDK at the key's rate limit; it backs off errors only and reports what it dropped", async () => {
    const key = await newKey(server, "limited", { rateLimit: { window: DAY, count: 2 } });
    const answers: { status: number; rateLimits: string | null; retryAfter: string | null }[] = [];
    Sentry.init({
      dsn: key.dsn.public,
      defaultIntegrations: false,
      sendClientReports: true,
      // The SDK's own HTTP transport, recording the answer to each envelope that carries an event.
      transport: (options) => {
        const transport = Sentry.makeNodeTransport(options);
        return {
          ...transport,
          async send(envelope) {
            const response = await transport.send(envelope);
            if (envelope[1].some(([item]) => item.type === "event")) {
              answers.push({
                status: response.statusCode ?? 0,
                rateLimits: response.headers?.["x-sentry-rate-limits"] ?? null,
                retryAfter: response.headers?.["retry-after"] ?? null,
              });
            }
            return response;
          },
        };
      },
    });
    for (let i = 1; i <= 4; i++) {
      Sentry.captureException(new Error(`limited ${i}`));
      assert.equal(await Sentry.flush(5000), true);
    }
    // Three sends reached the server; the SDK's transport dropped the fourth itself (no answer: status 0).
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 429, 0]);
    assert.match(answers[2]!.rateLimits ?? "", /^\d+:default;error;security:key:key_quota$/);
    assert.ok(Number(answers[2]!.retryAfter) >= 1);
    // The client report goes out on the next flush: the backed-off error.
    assert.equal(await Sentry.flush(5000), true);

    const totals = await outcomesOf(server, since);
    assert.equal(quantity(totals, "rate_limited", "error", "key_quota"), 1);
    assert.equal(quantity(totals, "client_discard", "error", "ratelimit_backoff"), 1);
    // Other categories of the same key are not limited.
    assert.equal((await post(server, key.public, "node-session-ok")).status, 200);
    const again = await post(server, key.public);
    assert.equal(again.status, 429);
    assert.match(again.headers.get("x-sentry-rate-limits") ?? "", /:default;error;security:key:key_quota$/);
  });

  it("refuses browser traffic from origins outside the project's allowed domains", async () => {
    const key = await newKey(server, "browser");
    const set = await apiJson<{ allowedDomains: string[] }>(server, "PUT", "/api/0/projects/default/default/", { allowedDomains: ["*.example.com", "https://shop.test"] });
    assert.deepEqual([set.status, set.body.allowedDomains], [200, ["*.example.com", "https://shop.test"]]);
    const from = async (headers: Record<string, string>) => (await post(server, key.public, "node-message", headers)).status;
    assert.equal(await from({ origin: "https://app.example.com" }), 200);
    assert.equal(await from({ origin: "https://example.com" }), 200);
    assert.equal(await from({ referer: "https://shop.test/checkout" }), 200);
    assert.equal(await from({}), 200, "server SDKs send no Origin");
    assert.equal(await from({ origin: "http://shop.test" }), 403);
    assert.equal(await from({ origin: "https://example.com.evil.test" }), 403);
    assert.equal(await from({ origin: "null" }), 403);
    const bad = await apiJson(server, "PUT", "/api/0/projects/default/default/", { allowedDomains: ["exa mple.com"] });
    assert.equal(bad.status, 400);
    await apiJson(server, "PUT", "/api/0/projects/default/default/", { allowedDomains: ["*"] });
    assert.equal(await from({ origin: "https://anything.test" }), 200);
  });
});

if (await postgresForTests("key controls on two processes")) {
  describe("key controls on two processes, one PostgreSQL", () => {
    let servers: TwoServers;
    let a: TestServer;
    let b: TestServer;

    before(async () => {
      servers = await startTwoServers();
      ({ a, b } = servers);
    });
    after(async () => {
      await servers?.stop();
    });

    it("share one key's rate limit", async () => {
      const since = Date.now() - 60_000;
      const key = await newKey(a, "shared", { rateLimit: { window: DAY, count: 5 } });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await post(a, key.public)).status, (await post(b, key.public)).status);
      }
      // 5 accepted in all, whichever process took them; 3 refused.
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
      assert.equal(quantity(await outcomesOf(a, since), "rate_limited", "error", "key_quota"), 3);
    });

    it("refuses a key disabled or revoked through one process on the other at once", async () => {
      const key = await newKey(a, "revocable");
      // b has the key cached before it changes.
      assert.equal((await post(b, key.public)).status, 200);
      assert.equal((await apiJson(a, "PUT", `/api/0/projects/default/default/keys/${key.id}/`, { isActive: false })).status, 200);
      assert.equal((await post(b, key.public)).status, 403);
      assert.equal((await apiJson(a, "PUT", `/api/0/projects/default/default/keys/${key.id}/`, { isActive: true })).status, 200);
      assert.equal((await post(b, key.public)).status, 200);
      assert.equal((await apiJson(a, "DELETE", `/api/0/projects/default/default/keys/${key.id}/`)).status, 204);
      assert.equal((await post(b, key.public)).status, 403);
    });
  });
}
