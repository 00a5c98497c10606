/**
 * The database goes away during ingest: Periscope answers 503 with Retry-After (never 200 for what
 * it could not store), the REST API answers 503 instead of hanging, and both recover by themselves
 * when the database is back. Runs on a throwaway cluster (tests/helpers/throwaway-postgres.ts) so the
 * machine's shared PostgreSQL is never stopped.
 */
import assert from "node:assert/strict";
import { after, before, describe, it, test } from "node:test";
import { readdressedEnvelope } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";
import { createThrowawayCluster, unavailableReason, type ThrowawayCluster } from "../helpers/throwaway-postgres";

const reason = unavailableReason();

const acknowledged: string[] = [];

async function health(server: TestServer): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(`${server.baseUrl}/_health`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

async function post(server: TestServer): Promise<{ status: number; retryAfter: string | null }> {
  const { body, eventId } = readdressedEnvelope("node-fingerprint", { publicKey: server.publicKey });
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, {
    method: "POST",
    body: new Uint8Array(body),
  });
  await response.arrayBuffer();
  if (response.status === 200) acknowledged.push(eventId);
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
}

if (reason !== null) {
  if (process.env.CI === "true") test("PostgreSQL outage: throwaway cluster required under CI=true", () => assert.fail(reason));
  else test("PostgreSQL outage", { skip: reason }, () => undefined);
} else {
  describe("PostgreSQL outage during ingest", () => {
    let cluster: ThrowawayCluster;
    let server: TestServer;

    before(async () => {
      cluster = createThrowawayCluster();
      cluster.start();
      server = await startServer({ DATABASE_URL: cluster.url });
    });
    after(async () => {
      await server?.stop();
      cluster?.destroy();
    });

    it("answers 503 with Retry-After while the database is down and recovers when it returns", async () => {
      assert.deepEqual(await post(server), { status: 200, retryAfter: null });
      assert.deepEqual(await health(server), { status: 200, retryAfter: null, body: { status: "ready", database: "ok" } });

      cluster.stop();
      const down = await Promise.all(Array.from({ length: 20 }, () => post(server)));
      assert.deepEqual(new Set(down.map((r) => JSON.stringify(r))), new Set([JSON.stringify({ status: 503, retryAfter: "5" })]));
      // The REST API too, and the health route load balancers poll (docs/deployment.md).
      assert.deepEqual(await health(server), { status: 503, retryAfter: "5", body: { status: "ready", database: "unreachable" } });
      for (const path of ["/api/0/projects/default/default/issues/", "/api/0/organizations/"]) {
        const api = await server.api(path);
        assert.deepEqual([path, api.status, api.headers.get("retry-after")], [path, 503, "5"]);
      }

      cluster.start();
      const deadline = Date.now() + 30_000;
      let status = 0;
      while (Date.now() < deadline) {
        ({ status } = await post(server));
        if (status === 200) break;
        assert.equal(status, 503);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(status, 200);
      assert.equal((await server.api(`/api/0/organizations/`)).status, 200);
      assert.deepEqual(await health(server), { status: 200, retryAfter: null, body: { status: "ready", database: "ok" } });
      // Every acknowledged event is stored: the one before the outage and the first one after it.
      assert.equal(acknowledged.length, 2);
      for (const id of acknowledged) {
        const event = await server.api(`/api/0/projects/default/default/events/${id}/`);
        assert.equal(event.status, 200);
      }
    });
  });
}
