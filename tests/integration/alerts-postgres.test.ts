/**
 * Alerts with two Periscope processes on one PostgreSQL (issue 34): every event is posted to both
 * at once, so both commit into the same issues and both run the alert job. Each new issue is still
 * heard exactly once: one evaluation pass at a time across processes (advisory lock), outbox claims
 * that skip rows the other process holds (FOR UPDATE SKIP LOCKED).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startWebhookReceiver, waitFor, type WebhookReceiver } from "../helpers/alert-receivers";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

const ISSUES = 20;

async function store(server: TestServer, eventId: string, message: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/store/?sentry_key=${server.publicKey}&sentry_version=7`, {
    method: "POST",
    headers: { "content-type": "application/json" },
        // Its own fingerprint per message: grouping would put numbers and UUIDs in messages together.
    body: JSON.stringify({ event_id: eventId, message, fingerprint: [message], level: "error", platform: "node", timestamp: Date.now() / 1000 }),
  });
  await response.arrayBuffer();
  return response.status;
}

if (await postgresForTests("alerts on PostgreSQL with two processes")) {
  describe("alerts: two processes, one PostgreSQL", () => {
    let schema: TestSchema;
    let receiver: WebhookReceiver;
    let a: TestServer;
    let b: TestServer;

    before(async () => {
      schema = await freshSchema();
      receiver = await startWebhookReceiver();
      const env = { DATABASE_URL: schema.url, ALERTS_INTERVAL_MS: "20", ALERTS_RETRY_BASE_MS: "100" };
      a = await startServer(env);
      b = await startServer(env, { bootstrapOwner: false });
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await receiver?.close();
      await schema?.drop();
    });

    it("sends one webhook per new issue though both processes commit and evaluate", async () => {
      const created = await a.api("/api/0/projects/default/default/rules/", {
        method: "POST",
        body: JSON.stringify({
          name: "every new issue", conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
          actions: [{ id: "periscope.rules.actions.WebhookAction", url: `${receiver.url}/pg`, format: "json" }],
        }),
      });
      assert.equal(created.status, 201);
      const messages = Array.from({ length: ISSUES }, (_, i) => `alerts on two processes ${i} ${randomUUID()}`);
      const statuses = await Promise.all(
        messages.flatMap((message) => {
          const eventId = randomUUID().replaceAll("-", "");
          return [store(a, eventId, message), store(b, eventId, message)];
        }),
      );
      assert.deepEqual(new Set(statuses), new Set([200]));
      await waitFor(`${ISSUES} webhooks`, () => (receiver.hooks.length >= ISSUES ? true : undefined), 30_000).catch((error: Error) => {
        throw new Error(`${error.message} (got ${receiver.hooks.length})\n${a.output()}\n${b.output()}`);
      });
      await a.withStorage(async (storage) => {
        await waitFor("both feeds evaluated", async () => ((await storage.alerts.feed.pending()) === 0 ? true : undefined));
      });
      // A few more job rounds of both processes: a second delivery would show up now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const titles = receiver.hooks.map((hook) => (hook.json.data as { issue: { title: string } }).issue.title).sort();
      assert.deepEqual(titles, [...messages].sort());
    });
  });
}
