/**
 * Scale-out: two Periscope processes on different ports share one PostgreSQL (a fresh schema).
 * The same events (same fingerprint, same event ids) are posted to both at once: one issue, exact
 * counts, every acknowledged event retrievable. A key created through one process is accepted by
 * the other at once (key-cache invalidation by LISTEN/NOTIFY, docs/adr/0002-scale-out-on-postgresql.md).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { readdressedEnvelope } from "../helpers/fixtures";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

const EVENTS = 150;

async function post(server: TestServer, publicKey: string, body: Buffer): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, {
    method: "POST",
    body: new Uint8Array(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function getJson<T>(server: TestServer, path: string): Promise<{ status: number; body: T }> {
  const response = await server.api(path);
  return { status: response.status, body: (await response.json()) as T };
}

if (await postgresForTests("multi-process on PostgreSQL")) {
  describe("two processes, one PostgreSQL", () => {
    let schema: TestSchema;
    let a: TestServer;
    let b: TestServer;

    before(async () => {
      schema = await freshSchema();
      // Started together: both find an empty database and race to create the defaults. Only one is
      // given the owner to bootstrap: two racing to create it make the loser exit (see server.ts).
      [a, b] = await Promise.all([
        startServer({ DATABASE_URL: schema.url, MONITOR_DETECTION_INTERVAL_MS: "100" }),
        startServer({ DATABASE_URL: schema.url, MONITOR_DETECTION_INTERVAL_MS: "100" }, { bootstrapOwner: false }),
      ]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await schema?.drop();
    });

    it("share the default organisation and project", () => {
      assert.notEqual(a.baseUrl, b.baseUrl);
      assert.equal(a.projectId, b.projectId);
    });

    it("store events posted to both at once in exactly one issue with exact counts", async () => {
      const ids = Array.from({ length: EVENTS }, () => randomUUID().replace(/-/g, ""));
      // Every event goes to both processes at the same time: each must be acknowledged by both and stored once.
      const statuses = await Promise.all(
        ids.flatMap((id) => [
          post(a, a.publicKey, readdressedEnvelope("node-fingerprint", { publicKey: a.publicKey }, id).body),
          post(b, b.publicKey, readdressedEnvelope("node-fingerprint", { publicKey: b.publicKey }, id).body),
        ]),
      );
      assert.deepEqual(new Set(statuses), new Set([200]));

      const issues = await getJson<{ id: string; count: string; shortId: string }[]>(b, `/api/0/projects/default/default/issues/?query=`);
      assert.equal(issues.status, 200);
      assert.equal(issues.body.length, 1);
      assert.equal(issues.body[0]!.count, String(EVENTS));
      assert.equal(issues.body[0]!.shortId, "DEFAULT-1");

      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const response: Response = await a.api(`/api/0/issues/${issues.body[0]!.id}/events/?per_page=100${cursor ? `&cursor=${cursor}` : ""}`);
        assert.equal(response.status, 200);
        for (const event of (await response.json()) as { eventID: string }[]) seen.add(event.eventID);
        const next = /<[^>]*[?&]cursor=([^&>]+)[^>]*>; rel="next"; results="true"/.exec(response.headers.get("link") ?? "");
        cursor = next?.[1] ?? null;
      } while (cursor);
      assert.deepEqual([...seen].sort(), [...ids].sort());
    });

    it("accepts a key created through one process in the other at once", async () => {
      const response = await a.api(`/api/0/projects/default/default/keys/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "second" }),
      });
      assert.equal(response.status, 201);
      const key = ((await response.json()) as { public: string }).public;
      assert.equal(await post(b, key, readdressedEnvelope("node-message", { publicKey: key }).body), 200);
      assert.equal(await post(b, "f".repeat(32), readdressedEnvelope("node-message", { publicKey: "f".repeat(32) }).body), 403);
    });

    // Cron monitors: both processes run the detection job every 100 ms on the same rows.
    it("record a missed run and a timed-out run once between them", async () => {
      const created = await a.api("/api/0/organizations/default/monitors/", {
        method: "POST",
        body: JSON.stringify({ project: "default", name: "mp-audit", config: { schedule: "0 0 1 1 *", failure_issue_threshold: 1 } }),
      });
      assert.equal(created.status, 201);
      const guid = randomUUID().replaceAll("-", "");
      const envelope = [{}, { type: "check_in" }, { check_in_id: guid, monitor_slug: "mp-backup", status: "in_progress", monitor_config: { schedule: { type: "crontab", value: "0 0 1 1 *" } } }];
      assert.equal(await post(b, b.publicKey, Buffer.from(envelope.map((line) => JSON.stringify(line)).join("\n"))), 200);
      // Both deadlines now lie in the past.
      const expected = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000;
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        await client.query("UPDATE monitors SET next_checkin = $1, next_checkin_latest = $2 WHERE slug = 'mp-audit'", [expected, expected + 60_000]);
        assert.equal((await client.query("UPDATE monitor_checkins SET timeout_at = $1 WHERE guid = $2", [Date.now() - 1_000, guid])).rowCount, 1);
      } finally {
        await client.end();
      }
      const statuses = async (slug: string) =>
        ((await (await a.api(`/api/0/organizations/default/monitors/${slug}/checkins/`)).json()) as { status: string }[]).map((run) => run.status);
      const deadline = Date.now() + 15_000;
      while ((!(await statuses("mp-audit")).includes("missed") || !(await statuses("mp-backup")).includes("timeout")) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Ten more passes of each process.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual(await statuses("mp-audit"), ["missed"]);
      assert.deepEqual(await statuses("mp-backup"), ["timeout"]);
      const issues = await getJson<{ count: string; title: string }[]>(b, `/api/0/projects/default/default/issues/?query=${encodeURIComponent("monitor.slug:mp-audit")}`);
      assert.deepEqual(issues.body.map((issue) => [issue.title, issue.count]), [["Cron failure: mp-audit", "1"]]);
    });
  });
}
