/**
 * Quotas and spike protection (issue 33 item 4) against a real server. The real `@sentry/node` SDK
 * hits a project's error quota: 429 with `X-Sentry-Rate-Limits` naming the error categories, scope
 * `project` and reason `project_quota`; it stops sending errors but still sends sessions and spans,
 * and its next client report says `ratelimit_backoff`. An envelope with an error and a session past
 * the error quota keeps the session (200 with the header). An organisation's quota counts its
 * projects together; spike protection limits a project once switched on; bad settings are refused
 * by field. On one PostgreSQL, two processes share a project's quota and an organisation's.
 *
 * Quotas use day windows here (aligned to UTC midnight), so a window boundary falls inside a run only
 * at midnight; window rollover is tested with chosen times on both engines' real counters
 * (tests/contract/quotas-suite.ts).
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { OutcomeTotal } from "../../src/model";
import { readdressedEnvelope } from "../helpers/fixtures";
import { postgresForTests } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

interface ProjectJson {
  id: string;
  slug: string;
}
interface KeyJson {
  public: string;
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

/** A new project of the default team, with its key. */
async function newProject(server: TestServer, name: string): Promise<{ project: ProjectJson; key: KeyJson }> {
  const created = await apiJson<ProjectJson>(server, "POST", "/api/0/teams/default/default/projects/", { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const keys = await apiJson<KeyJson[]>(server, "GET", `/api/0/projects/default/${created.body.slug}/keys/`);
  return { project: created.body, key: keys.body[0]! };
}

async function putQuotas(server: TestServer, path: string, body: unknown): Promise<void> {
  const answer = await apiJson(server, "PUT", path, body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

async function post(server: TestServer, projectId: string, publicKey: string, body: Buffer): Promise<Response> {
  const response = await fetch(`${server.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, { method: "POST", body: new Uint8Array(body) });
  await response.arrayBuffer();
  return response;
}

const error = (publicKey: string) => readdressedEnvelope("node-message", { publicKey }).body;

/** An error and a session in one envelope, as an SDK sends them after a crash. */
function errorAndSession(): Buffer {
  const eventId = randomUUID().replace(/-/g, "");
  const event = JSON.stringify({ event_id: eventId, message: "with a session", platform: "node", timestamp: Date.now() / 1000 });
  const session = JSON.stringify({ sid: randomUUID(), status: "exited", init: true, errors: 1, started: new Date().toISOString(), timestamp: new Date().toISOString(), attrs: { release: "quota-test@1" } });
  return Buffer.from([JSON.stringify({ event_id: eventId }), '{"type":"event"}', event, '{"type":"session"}', session, ""].join("\n"));
}

const outcomesOf = (server: TestServer, projectId: string, since: number) =>
  server.withStorage((storage) => storage.outcomes.totals(projectId, since)) as Promise<OutcomeTotal[]>;

function quantity(totals: OutcomeTotal[], outcome: string, category: string, reason: string | null): number {
  return totals.filter((row) => row.outcome === outcome && row.category === category && row.reason === reason).reduce((sum, row) => sum + row.quantity, 0);
}

describe("quotas on one process (SQLite)", () => {
  let server: TestServer;
  const since = Date.now() - 60_000;

  before(async () => {
    server = await startServer({ SPIKE_PROTECTION_MIN_PER_HOUR: "3" });
  });
  after(async () => {
    await Sentry.close(2000);
    await server?.stop();
  });

  it("stops the real SDK's errors at the project's quota; sessions and spans still go through", async () => {
    const { project, key } = await newProject(server, "Quota SDK");
    await putQuotas(server, `/api/0/projects/default/${project.slug}/quotas/`, { quotas: [{ category: "error", window: "day", limit: 2 }] });
    const shown = await apiJson<{ quotas: { category: string; window: string; limit: number; used: number; resetsAt: string }[] }>(server, "GET", `/api/0/projects/default/${project.slug}/quotas/`);
    assert.deepEqual(shown.body.quotas.map(({ category, window, limit, used }) => ({ category, window, limit, used })), [{ category: "error", window: "day", limit: 2, used: 0 }]);
    assert.equal(Date.parse(shown.body.quotas[0]!.resetsAt) % 86_400_000, 0);

    const answers: { types: string[]; status: number; rateLimits: string | null; retryAfter: string | null }[] = [];
    Sentry.init({
      dsn: key.dsn.public,
      defaultIntegrations: false,
      sendClientReports: true,
      tracesSampleRate: 1,
      release: "quota-test@1.0.0",
      // The SDK's own HTTP transport, recording the answer to each envelope (status 0: the SDK dropped it itself).
      transport: (options) => {
        const transport = Sentry.makeNodeTransport(options);
        return {
          ...transport,
          async send(envelope) {
            const response = await transport.send(envelope);
            answers.push({
              types: envelope[1].map(([item]) => item.type),
              status: response.statusCode ?? 0,
              rateLimits: response.headers?.["x-sentry-rate-limits"] ?? null,
              retryAfter: response.headers?.["retry-after"] ?? null,
            });
            return response;
          },
        };
      },
    });
    for (let i = 1; i <= 4; i++) {
      Sentry.captureException(new Error(`over quota ${i}`));
      assert.equal(await Sentry.flush(5000), true);
    }
    const errors = answers.filter((answer) => answer.types.includes("event"));
    assert.deepEqual(errors.map((answer) => answer.status), [200, 200, 429, 0]);
    assert.match(errors[2]!.rateLimits ?? "", /^\d+:default;error;security:project:project_quota$/);
    assert.ok(Number(errors[2]!.retryAfter) >= 1);
    assert.equal(Number(errors[2]!.retryAfter), Number((errors[2]!.rateLimits ?? "").split(":")[0]));

    // Other categories are not limited: the SDK sends them and the server takes them.
    Sentry.startSession();
    Sentry.captureSession(true);
    await Sentry.startSpan({ name: "after the quota", op: "task" }, () => new Promise((resolve) => setTimeout(resolve, 5)));
    assert.equal(await Sentry.flush(5000), true);
    const sessions = answers.filter((answer) => answer.types.includes("session"));
    const spans = answers.filter((answer) => answer.types.includes("span") || answer.types.includes("transaction"));
    assert.ok(sessions.length >= 1 && sessions.every((answer) => answer.status === 200), JSON.stringify(answers));
    assert.ok(spans.length >= 1 && spans.every((answer) => answer.status === 200), JSON.stringify(answers));
    // The client report (the backed-off error) goes out with a later flush.
    assert.equal(await Sentry.flush(5000), true);
    await Sentry.close(2000);

    const totals = await outcomesOf(server, project.id, since);
    assert.equal(quantity(totals, "accepted", "error", null), 2);
    assert.equal(quantity(totals, "rate_limited", "error", "project_quota"), 1);
    assert.equal(quantity(totals, "client_discard", "error", "ratelimit_backoff"), 1);
    assert.ok(quantity(totals, "accepted", "session", null) >= 1);
    assert.ok(quantity(totals, "accepted", "span", null) >= 1);
    const used = await apiJson<{ quotas: { used: number }[] }>(server, "GET", `/api/0/projects/default/${project.slug}/quotas/`);
    assert.equal(used.body.quotas[0]!.used, 2);
  });

  it("keeps the session of an envelope whose error is over quota, and names the limit on its 200", async () => {
    const { project, key } = await newProject(server, "Quota Mixed");
    await putQuotas(server, `/api/0/projects/default/${project.slug}/quotas/`, { quotas: [{ category: "error", window: "day", limit: 0 }] });
    const answer = await post(server, project.id, key.public, errorAndSession());
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("x-sentry-rate-limits") ?? "", /^\d+:default;error;security:project:project_quota$/);
    const totals = await outcomesOf(server, project.id, since);
    assert.deepEqual([quantity(totals, "rate_limited", "error", "project_quota"), quantity(totals, "accepted", "session", null), quantity(totals, "accepted", "error", null)], [1, 1, 0]);
    // The stats page's API shows the refused error under its reason.
    const stats = await apiJson<{ groups: { by: Record<string, string>; totals: Record<string, number> }[] }>(
      server,
      "GET",
      `/api/0/organizations/default/stats_v2/?field=sum(quantity)&groupBy=outcome&groupBy=reason&category=error&project=${project.id}&statsPeriod=24h`,
    );
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    const limited = stats.body.groups.find((group) => group.by.outcome === "rate_limited" && group.by.reason === "project_quota");
    assert.equal(limited?.totals["sum(quantity)"], 1);
  });

  it("counts an organisation's quota across its projects", async () => {
    const [first, second] = [await newProject(server, "Quota Org A"), await newProject(server, "Quota Org B")];
    await putQuotas(server, "/api/0/organizations/default/quotas/", { quotas: [{ category: "error", window: "day", limit: 3 }] });
    try {
      const statuses: number[] = [];
      const limits = new Set<string>();
      for (let i = 0; i < 3; i++) {
        for (const { project, key } of [first, second]) {
          const answer = await post(server, project.id, key.public, error(key.public));
          statuses.push(answer.status);
          if (answer.status === 429) limits.add((answer.headers.get("x-sentry-rate-limits") ?? "").replace(/^\d+/, "N"));
        }
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
      assert.deepEqual([...limits], ["N:default;error;security:organization:org_quota"]);
      const shown = await apiJson<{ quotas: { used: number; limit: number }[] }>(server, "GET", "/api/0/organizations/default/quotas/");
      assert.deepEqual(shown.body.quotas.map(({ used, limit }) => [used, limit]), [[3, 3]]);
      const [a, b] = [await outcomesOf(server, first.project.id, since), await outcomesOf(server, second.project.id, since)];
      assert.equal(quantity(a, "rate_limited", "error", "org_quota") + quantity(b, "rate_limited", "error", "org_quota"), 3);
    } finally {
      await putQuotas(server, "/api/0/organizations/default/quotas/", { quotas: [] });
    }
    assert.equal((await post(server, first.project.id, first.key.public, error(first.key.public))).status, 200);
  });

  it("limits a project with spike protection on, and not once it is off", async () => {
    const { project, key } = await newProject(server, "Quota Spike");
    // No history: the limit is the floor, SPIKE_PROTECTION_MIN_PER_HOUR (3 here).
    assert.equal((await apiJson(server, "POST", "/api/0/organizations/default/spike-protections/", { projects: [project.slug] })).status, 201);
    const shown = await apiJson<{ spikeProtection: { enabled: boolean } }>(server, "GET", `/api/0/projects/default/${project.slug}/quotas/`);
    assert.equal(shown.body.spikeProtection.enabled, true);
    const answers: Response[] = [];
    for (let i = 0; i < 5; i++) answers.push(await post(server, project.id, key.public, error(key.public)));
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200, 429, 429]);
    assert.match(answers[3]!.headers.get("x-sentry-rate-limits") ?? "", /^\d+:default;error;security:project:spike_protection$/);
    assert.equal(quantity(await outcomesOf(server, project.id, since), "rate_limited", "error", "spike_protection"), 2);
    assert.equal((await apiJson(server, "DELETE", "/api/0/organizations/default/spike-protections/", { projects: [project.slug] })).status, 204);
    assert.equal((await post(server, project.id, key.public, error(key.public))).status, 200);
  });

  it("refuses bad settings with a 400 naming the field", async () => {
    const path = "/api/0/projects/default/default/quotas/";
    const cases: [unknown, RegExp][] = [
      [{ quotas: [{ category: "error", window: "week", limit: 5 }] }, /quotas\.0\.window: must be one of minute, hour, day, month/],
      [{ quotas: [{ category: "errors", window: "day", limit: 5 }] }, /quotas\.0\.category: must be one of error, transaction/],
      [{ quotas: [{ category: "error", window: "day", limit: -1 }] }, /quotas\.0\.limit: must be a whole number from 0/],
      [{ quotas: [{ category: "error", window: "day", limit: 1.5 }] }, /quotas\.0\.limit: must be a whole number from 0/],
      [{ quotas: [{ category: "error", window: "day", limit: "10" }] }, /quotas\.0\.limit/],
      [{ quotas: [{ category: "span", window: "day", limit: 5 }, { category: "span", window: "day", limit: 6 }] }, /quotas\.1: span per day is already set by quotas\.0/],
      [{ quota: [] }, /quota/],
      [{ spikeProtection: "yes" }, /spikeProtection/],
    ];
    for (const [body, expected] of cases) {
      const answer = await apiJson<{ detail: string }>(server, "PUT", path, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.match(answer.body.detail, expected);
    }
    const orgSpike = await apiJson<{ detail: string }>(server, "PUT", "/api/0/organizations/default/quotas/", { spikeProtection: true });
    assert.deepEqual([orgSpike.status, /spikeProtection/.test(JSON.stringify(orgSpike.body))], [400, true]);
    const unknown = await apiJson<{ detail: string }>(server, "POST", "/api/0/organizations/default/spike-protections/", { projects: ["no-such-project"] });
    assert.deepEqual([unknown.status, /projects\.0: unknown project no-such-project/.test(JSON.stringify(unknown.body))], [400, true]);
    // Nothing was stored by the refused requests.
    assert.deepEqual((await apiJson<{ quotas: unknown[] }>(server, "GET", path)).body.quotas, []);
  });
});

if (await postgresForTests("quotas on two processes")) {
  describe("quotas on two processes, one PostgreSQL", () => {
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

    it("share one project's quota", async () => {
      const since = Date.now() - 60_000;
      const { project, key } = await newProject(a, "Shared");
      await putQuotas(a, `/api/0/projects/default/${project.slug}/quotas/`, { quotas: [{ category: "error", window: "day", limit: 5 }] });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await post(a, project.id, key.public, error(key.public))).status, (await post(b, project.id, key.public, error(key.public))).status);
      }
      // 5 accepted in all, whichever process took them; 3 refused.
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
      const totals = await outcomesOf(a, project.id, since);
      assert.deepEqual([quantity(totals, "accepted", "error", null), quantity(totals, "rate_limited", "error", "project_quota")], [5, 3]);
    });

    it("never accept more than the quota between them under concurrent requests", async () => {
      const since = Date.now() - 60_000;
      const { project, key } = await newProject(a, "Concurrent");
      await putQuotas(b, `/api/0/projects/default/${project.slug}/quotas/`, { quotas: [{ category: "error", window: "day", limit: 7 }] });
      // 24 requests at once, half through each process: counted in coalesced statements on both.
      const statuses = await Promise.all(Array.from({ length: 24 }, (_, i) => post(i % 2 === 0 ? a : b, project.id, key.public, error(key.public)).then((answer) => answer.status)));
      assert.deepEqual([statuses.filter((status) => status === 200).length, statuses.filter((status) => status === 429).length], [7, 17]);
      const totals = await outcomesOf(a, project.id, since);
      assert.deepEqual([quantity(totals, "accepted", "error", null), quantity(totals, "rate_limited", "error", "project_quota")], [7, 17]);
    });

    it("share an organisation's quota across two projects, and a raised limit applies on both at once", async () => {
      const [first, second] = [await newProject(a, "Org One"), await newProject(a, "Org Two")];
      await putQuotas(b, "/api/0/organizations/default/quotas/", { quotas: [{ category: "error", window: "day", limit: 4 }] });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await post(a, first.project.id, first.key.public, error(first.key.public))).status);
        statuses.push((await post(b, second.project.id, second.key.public, error(second.key.public))).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      // Raised through one process: the other hears of it (LISTEN/NOTIFY, a few ms later; a refused
      // request consumes nothing, so refusals before it has heard do not change the count) and
      // takes exactly 2 more.
      await putQuotas(a, "/api/0/organizations/default/quotas/", { quotas: [{ category: "error", window: "day", limit: 6 }] });
      let heard = 429;
      for (let attempt = 0; attempt < 100 && heard === 429; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        heard = (await post(b, second.project.id, second.key.public, error(second.key.public))).status;
      }
      const after = [heard];
      for (let i = 0; i < 2; i++) after.push((await post(b, second.project.id, second.key.public, error(second.key.public))).status);
      assert.deepEqual(after, [200, 200, 429]);
    });
  });
}
