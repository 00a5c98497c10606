/**
 * Scale-out: two Periscope processes on different ports share one PostgreSQL (a fresh schema).
 * The same events (same fingerprint, same event ids) are posted to both at once: one issue, exact
 * counts, every acknowledged event retrievable. A key created through one process is accepted by
 * the other at once (key-cache invalidation by LISTEN/NOTIFY, docs/adr/0002-scale-out-on-postgresql.md).
 */
import assert from "node:assert/strict";
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
        startServer({ DATABASE_URL: schema.url }),
        startServer({ DATABASE_URL: schema.url }, { bootstrapOwner: false }),
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
  });
}
