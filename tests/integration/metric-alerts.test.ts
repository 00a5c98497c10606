/**
 * Metric alerts end to end (issue 34 item 2) with real parts: session envelopes and events sent over
 * HTTP to a real Periscope, whose alerts job (every 100 ms here) evaluates the rules and posts signed
 * webhooks to a real HTTP receiver. A crash-free session rate rule goes critical and then resolves,
 * exactly one message each, with rates computed here from the sessions sent; an error count rule
 * goes warning then critical; bad input is refused naming the field, nothing saved. The crash-free
 * and error count cases run on SQLite and on PostgreSQL, there with two processes on one database.
 */
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startWebhookReceiver, waitFor, type ReceivedHook, type WebhookReceiver } from "../helpers/alert-receivers";
import { legacyTransactionEnvelope } from "../helpers/perf-envelopes";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

type Json = Record<string, unknown>;
const CRASH_FREE = "crash_free_rate(session)";

interface Project {
  id: string;
  slug: string;
  dsn: string;
}

interface Rule {
  id: string;
  signingSecret: string;
  state: string;
  stateChanged: string | null;
  lastEvaluated: string | null;
}

/** Crash-free session rate as a percentage, from the counts sent (healthy and crashed only). */
const crashFree = (healthy: number, crashed: number) => (100 * healthy) / (healthy + crashed);

function harness(engine: "sqlite" | "postgres") {
  let server: TestServer;
  /** PostgreSQL: a second process on the same database runs the alert job too (one pass at a time, still one message per change). */
  let second: TestServer | undefined;
  let schema: TestSchema | undefined;
  let receiver: WebhookReceiver;

  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const response = await server.api(path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };

  const createProject = async (name: string): Promise<Project> => {
    const created = await api("POST", "/api/0/teams/default/default/projects/", { name, platform: "node" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, slug } = created.body as { id: string; slug: string };
    const keys = await api("GET", `/api/0/projects/default/${slug}/keys/`);
    return { id, slug, dsn: (keys.body as { dsn: { public: string } }[])[0]!.dsn.public };
  };

  const createRule = async (body: Json): Promise<Rule> => {
    const answer = await api("POST", "/api/0/organizations/default/alert-rules/", body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as Rule;
  };

  const getRule = async (id: string): Promise<Rule> => {
    const answer = await api("GET", `/api/0/organizations/default/alert-rules/${id}/`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as Rule;
  };

  /** A session aggregate envelope, as server SDKs send release health: `healthy` exited, `crashed` crashed, started now. */
  const sendSessions = async (project: Project, healthy: number, crashed: number) => {
    const started = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const body = [
      JSON.stringify({ dsn: project.dsn, sent_at: new Date().toISOString() }),
      JSON.stringify({ type: "sessions" }),
      JSON.stringify({ aggregates: [{ started, exited: healthy, crashed }], attrs: { release: "metric@1.0.0", environment: "production" } }),
    ].join("\n");
    const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/`, { method: "POST", body });
    assert.equal(response.status, 200, await response.text());
  };

  const hooksAt = (path: string) => receiver.hooks.filter((hook) => hook.path === path);
  const metricOf = (hook: ReceivedHook) => ((hook.json.data as Json).metric_alert as { state: string; value: number; threshold: number | null });

  /** The rule's state changed to `state` and a later pass saw it unchanged (so a second message would have been queued by now). */
  const settledIn = async (id: string, state: string) =>
    waitFor(`rule ${id} to settle in ${state}`, async () => {
      const rule = await getRule(id);
      return rule.state === state && rule.lastEvaluated !== null && rule.stateChanged !== null && Date.parse(rule.lastEvaluated) > Date.parse(rule.stateChanged) ? rule : undefined;
    });

  return {
    async start() {
      if (engine === "postgres") schema = await freshSchema();
      receiver = await startWebhookReceiver();
      const env = { ...(schema ? { DATABASE_URL: schema.url } : {}), ALERTS_INTERVAL_MS: "100", ALERTS_RETRY_BASE_MS: "200" };
      server = await startServer(env);
      if (schema) second = await startServer({ ...env, ALERTS_INTERVAL_MS: "30" }, { bootstrapOwner: false });
    },
    async stop() {
      await second?.stop();
      await server?.stop();
      await receiver?.close();
      await schema?.drop();
    },

    async crashFreeFiresAndResolves() {
      const project = await createProject(`Crash free ${engine}`);
      const path = `/crash-${engine}`;
      const rule = await createRule({
        name: "crash-free sessions", dataset: "sessions", aggregate: CRASH_FREE, timeWindow: 60, thresholdType: 1, resolveThreshold: 95,
        projects: [project.slug], environment: "production",
        triggers: [{ label: "critical", alertThreshold: 90, actions: [{ type: "webhook", targetType: "specific", targetIdentifier: `${receiver.url}${path}` }] }],
      });
      assert.equal(rule.state, "ok");

      // 8 healthy, 2 crashed: 80 % < 90 % → critical.
      await sendSessions(project, 8, 2);
      const [critical] = await waitFor("the critical webhook", () => (hooksAt(path).length >= 1 ? hooksAt(path) : undefined));
      assert.equal(critical!.json.action, "critical");
      assert.equal(critical!.headers["sentry-hook-resource"], "metric_alert");
      assert.equal(critical!.headers["sentry-hook-signature"], createHmac("sha256", rule.signingSecret).update(critical!.body).digest("hex"));
      assert.equal(metricOf(critical!).value, crashFree(8, 2));
      assert.equal(metricOf(critical!).threshold, 90);
      assert.match(String((critical!.json.data as Json).url), new RegExp(`/organizations/default/alerts/${project.slug}/metric/${rule.id}/$`));
      await settledIn(rule.id, "critical");
      assert.equal(hooksAt(path).length, 1);

      // 40 more healthy: 48 of 50 = 96 % ≥ 95 % (resolveThreshold) → resolved.
      await sendSessions(project, 40, 0);
      const resolved = await waitFor("the resolved webhook", () => hooksAt(path)[1]);
      assert.equal(resolved.json.action, "resolved");
      assert.equal(metricOf(resolved).value, crashFree(48, 2));
      await settledIn(rule.id, "resolved");
      assert.deepStrictEqual(hooksAt(path).map((hook) => hook.json.action), ["critical", "resolved"]);

      const log = await api("GET", `/api/0/organizations/default/alert-rules/${rule.id}/deliveries/`);
      assert.deepStrictEqual((log.body as { status: string; kind: string }[]).map(({ status, kind }) => `${kind}:${status}`), ["metric:sent", "metric:sent"]);
    },

    async errorCountWarnsThenCrits() {
      const project = await createProject(`Error count ${engine}`);
      const path = `/errors-${engine}`;
      const hook = { type: "webhook", targetIdentifier: `${receiver.url}${path}` };
      const rule = await createRule({
        name: "errors", aggregate: "count()", timeWindow: 5, thresholdType: 0, projects: [project.slug],
        triggers: [{ label: "critical", alertThreshold: 4, actions: [hook] }, { label: "warning", alertThreshold: 2, actions: [hook] }],
      });
      const store = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const message = `metric alert error ${randomUUID()}`;
          const key = new URL(project.dsn).username;
          const response = await fetch(`${server.baseUrl}/api/${project.id}/store/?sentry_key=${key}&sentry_version=7`, {
            method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify({ event_id: randomUUID().replaceAll("-", ""), message, fingerprint: [message], level: "error", platform: "node", timestamp: Date.now() / 1000 }),
          });
          assert.equal(response.status, 200, await response.text());
        }
      };
      // 3 errors: above 2 (warning), not above 4.
      await store(3);
      const warning = await waitFor("the warning webhook", () => hooksAt(path)[0]);
      assert.equal(warning.json.action, "warning");
      assert.equal(metricOf(warning).value, 3);
      await settledIn(rule.id, "warning");
      // 2 more: 5 > 4 → critical.
      await store(2);
      const critical = await waitFor("the critical webhook", () => hooksAt(path)[1]);
      assert.equal(critical.json.action, "critical");
      assert.equal(metricOf(critical).value, 5);
      await settledIn(rule.id, "critical");
      assert.equal(hooksAt(path).length, 2);
      // What was queued, sent or not: one row per change.
      const log = await api("GET", `/api/0/organizations/default/alert-rules/${rule.id}/deliveries/`);
      assert.equal((log.body as unknown[]).length, 2);
    },

    async usersAndP95() {
      const project = await createProject(`Users and p95 ${engine}`);
      const key = new URL(project.dsn).username;
      const usersPath = `/users-${engine}`;
      const p95Path = `/p95-${engine}`;
      await createRule({
        name: "users", aggregate: "count_unique(user)", timeWindow: 5, thresholdType: 0, projects: [project.slug],
        triggers: [{ label: "critical", alertThreshold: 2, actions: [{ type: "webhook", targetIdentifier: `${receiver.url}${usersPath}` }] }],
      });
      await createRule({
        name: "slow", aggregate: "p95(transaction.duration)", timeWindow: 60, thresholdType: 0, projects: [project.slug],
        triggers: [{ label: "critical", alertThreshold: 1500, actions: [{ type: "webhook", targetIdentifier: `${receiver.url}${p95Path}` }] }],
      });
      // Errors of users a, b, a, c: 3 distinct users > 2.
      for (const user of ["a", "b", "a", "c"]) {
        const message = `metric alert user error ${randomUUID()}`;
        const response = await fetch(`${server.baseUrl}/api/${project.id}/store/?sentry_key=${key}&sentry_version=7`, {
          method: "POST", headers: { "content-type": "application/json" },
          body: JSON.stringify({ event_id: randomUUID().replaceAll("-", ""), message, fingerprint: [message], level: "error", platform: "node", user: { id: user }, timestamp: Date.now() / 1000 }),
        });
        assert.equal(response.status, 200, await response.text());
      }
      const users = await waitFor("the users webhook", () => hooksAt(usersPath)[0]);
      assert.equal(metricOf(users).value, new Set(["a", "b", "a", "c"]).size);
      // 20 transactions of 100…2000 ms: nearest-rank p95 is the 19th shortest.
      const durations = Array.from({ length: 20 }, (_, i) => (i + 1) * 100);
      const end = Math.floor(Date.now() / 1000) * 1000;
      for (const duration of durations) {
        const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/`, { method: "POST", body: legacyTransactionEnvelope(project.dsn, { name: "/checkout", duration, status: "ok", end }).body });
        assert.equal(response.status, 200, await response.text());
      }
      const expected = [...durations].sort((a, b) => a - b)[Math.ceil(0.95 * durations.length) - 1]!;
      const slow = await waitFor("the p95 webhook", () => hooksAt(p95Path)[0]);
      assert.equal(slow.json.action, "critical");
      assert.equal(metricOf(slow).value, expected);
    },

    async refusesBadInput() {
      const project = await createProject(`Bad input ${engine}`);
      const base = {
        name: "bad", aggregate: "count()", timeWindow: 60, thresholdType: 0, projects: [project.slug],
        triggers: [{ label: "critical", alertThreshold: 10, actions: [{ type: "webhook", targetIdentifier: "https://hooks.example/x" }] }],
      };
      const listed = async () => ((await api("GET", "/api/0/organizations/default/alert-rules/")).body as Json[]).length;
      const count = await listed();
      const cases: [Json, number, RegExp][] = [
        [{ ...base, colour: "red" }, 400, /colour/],
        [{ ...base, aggregate: "avg(nothing)" }, 400, /aggregate: must be one of/],
        [{ ...base, timeWindow: 7 }, 400, /timeWindow: must be one of 1, 5, 10/],
        [{ ...base, thresholdType: 2 }, 400, /thresholdType: must be 0 \(above\) or 1 \(below\)/],
        [{ ...base, triggers: [] }, 400, /triggers: needs a critical trigger/],
        [{ ...base, triggers: [{ ...base.triggers[0], label: "warning" }] }, 400, /triggers: needs a trigger labelled critical/],
        [{ ...base, aggregate: CRASH_FREE, thresholdType: 1, triggers: [{ ...base.triggers[0], alertThreshold: 150 }] }, 400, /triggers\.0\.alertThreshold: must be between 0 and 100/],
        [{ ...base, triggers: [{ ...base.triggers[0], alertThreshold: "lots" }] }, 400, /triggers\.0\.alertThreshold: must be a number/],
        [{ ...base, triggers: [base.triggers[0], { label: "warning", alertThreshold: 20, actions: [] }] }, 400, /triggers: the warning threshold must be at most the critical threshold/],
        [{ ...base, resolveThreshold: 50 }, 400, /resolveThreshold: must be at most the critical threshold/],
        [{ ...base, triggers: [{ ...base.triggers[0], actions: [{ type: "webhook", targetIdentifier: "ftp://hooks.example/x" }] }] }, 400, /triggers\.0\.actions\.0\.targetIdentifier: must be an http:\/\/ or https:\/\/ URL, not ftp:/],
        [{ ...base, triggers: [{ ...base.triggers[0], actions: [{ type: "email", targetType: "team", targetIdentifier: "999999" }] }] }, 400, /triggers\.0\.actions\.0\.targetIdentifier: no team with id 999999/],
        [{ ...base, projects: [] }, 400, /projects: must name exactly one project slug/],
        [{ ...base, projects: ["no-such-project"] }, 404, /projects: project "no-such-project" not found/],
      ];
      for (const [body, status, message] of cases) {
        const answer = await api("POST", "/api/0/organizations/default/alert-rules/", body);
        assert.equal(answer.status, status, `${JSON.stringify(body)} → ${JSON.stringify(answer.body)}`);
        assert.match((answer.body as { detail: string }).detail, message);
      }
      assert.equal(await listed(), count);
      // A good rule, then a bad PUT: 400 and the rule as it was.
      const rule = await createRule(base);
      const put = await api("PUT", `/api/0/organizations/default/alert-rules/${rule.id}/`, { ...base, name: "renamed", timeWindow: 0 });
      assert.equal(put.status, 400);
      assert.equal(((await getRule(rule.id)) as unknown as { name: string }).name, "bad");
      assert.equal((await api("GET", "/api/0/organizations/default/alert-rules/999999/")).status, 404);
    },
  };
}

describe("metric alerts on SQLite", () => {
  const h = harness("sqlite");
  before(() => h.start());
  after(() => h.stop());
  it("fires critical on a crash-free session rate below 90 % and resolves at 95 %", () => h.crashFreeFiresAndResolves());
  it("warns at an error count above 2 and goes critical above 4", () => h.errorCountWarnsThenCrits());
  it("fires on unique users of errors and on transaction p95", () => h.usersAndP95());
  it("refuses bad rule input naming the field, saving nothing", () => h.refusesBadInput());
});

if (await postgresForTests("metric alerts on PostgreSQL")) {
  describe("metric alerts on PostgreSQL", () => {
    const h = harness("postgres");
    before(() => h.start());
    after(() => h.stop());
    it("fires critical on a crash-free session rate below 90 % and resolves at 95 %", () => h.crashFreeFiresAndResolves());
    it("warns at an error count above 2 and goes critical above 4", () => h.errorCountWarnsThenCrits());
  });
}
