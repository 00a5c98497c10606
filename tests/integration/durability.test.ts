/**
 * What was acknowledged is stored: a server killed with SIGKILL in the middle of a load run keeps
 * every event it answered 200 for; above capacity ingest answers 429 with Retry-After instead of
 * queueing without bound, and recovers by itself. Each in both SQLite topologies (src/config.ts
 * IngestTopology): commits on the commit thread (the default) and inline on the main thread.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { makeTemplate, runLoad } from "../../bench/load";
import { readdressedEnvelope } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");
const ingestUrl = (server: TestServer) =>
  `${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`;

async function storedCount(server: TestServer, eventIds: string[]): Promise<number> {
  let stored = 0;
  for (const eventId of eventIds) {
    const response = await server.api(`/api/0/projects/default/default/events/${eventId}/`);
    if (response.status === 200) stored++;
  }
  return stored;
}

for (const [name, SQLITE_COMMIT_THREAD] of [["commit thread", "true"], ["main thread", "false"]] as const) {
  describe(`durability (commits on the ${name})`, () => {
    it("keeps every acknowledged event when the server is killed with SIGKILL mid-run", async () => {
      const server = await startServer({ SQLITE_COMMIT_THREAD });
      const raw = readFileSync(path.join(fixtures, "node-error-cause.envelope"), "latin1");
      const template = makeTemplate(Buffer.from(raw.split("0123456789abcdef0123456789abcdef").join(server.publicKey), "latin1"));
      const load = runLoad({ url: ingestUrl(server), templates: [template], connections: 16, seconds: 3 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.kill();
      const result = await load;
      assert.ok(result.accepted > 100, `the run was under way when killed (${result.accepted} acknowledged)`);
      assert.ok(result.sent > result.accepted, "some requests were cut off by the kill");

      const restarted = await startServer({ DATA_DIR: server.dataDir, SQLITE_COMMIT_THREAD });
      try {
        assert.equal(await storedCount(restarted, result.acceptedIds), result.acceptedIds.length);
      } finally {
        await restarted.stop();
      }
    });

    it("finishes in-flight requests and commits them on SIGTERM", async () => {
      // A long flush window keeps the requests waiting for their commit when SIGTERM arrives.
      const server = await startServer({ WRITER_FLUSH_MS: "1000", SQLITE_COMMIT_THREAD });
      const warmUp = readdressedEnvelope("node-message", { publicKey: server.publicKey });
      assert.equal((await fetch(ingestUrl(server), { method: "POST", body: new Uint8Array(warmUp.body) })).status, 200);
      const sends = Array.from({ length: 10 }, () => readdressedEnvelope("node-message", { publicKey: server.publicKey }));
      const answers = sends.map(({ body }) => fetch(ingestUrl(server), { method: "POST", body: new Uint8Array(body) }));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const stopping = server.stop({ keepData: true });
      const statuses = await Promise.all(answers.map(async (answer) => (await answer).status));
      await stopping;
      assert.deepEqual(statuses, sends.map(() => 200));
      const restarted = await startServer({ DATA_DIR: server.dataDir, SQLITE_COMMIT_THREAD });
      try {
        assert.equal(await storedCount(restarted, sends.map((s) => s.eventId)), sends.length);
      } finally {
        await restarted.stop();
      }
    });
  });

  describe(`back-pressure (pipeline on the ${name})`, () => {
    it("answers 429 with Retry-After and rate limits above capacity, stores what it accepted, and recovers", async () => {
      const server = await startServer({ WRITER_MAX_PENDING: "6", WRITER_FLUSH_MS: "400", SQLITE_COMMIT_THREAD });
      try {
        const sends = Array.from({ length: 20 }, () => readdressedEnvelope("node-message", { publicKey: server.publicKey }));
        const responses = await Promise.all(sends.map(({ body }) => fetch(ingestUrl(server), { method: "POST", body: new Uint8Array(body) })));
        const limited = responses.filter((response) => response.status === 429);
        const accepted = sends.filter((_, index) => responses[index]!.status === 200);
        assert.ok(limited.length > 0, "some requests were refused");
        assert.equal(limited.length + accepted.length, sends.length, "every answer is 200 or 429");
        assert.deepEqual(
          { retryAfter: limited[0]!.headers.get("retry-after"), limits: limited[0]!.headers.get("x-sentry-rate-limits"), body: await limited[0]!.json() },
          { retryAfter: "1", limits: "1::organization", body: { detail: "ingest is over capacity: the write queue is full, retry shortly" } },
        );
        assert.equal(await storedCount(server, accepted.map((s) => s.eventId)), accepted.length);

        await new Promise((resolve) => setTimeout(resolve, 1000));
        const again = readdressedEnvelope("node-message", { publicKey: server.publicKey });
        const retry = await fetch(ingestUrl(server), { method: "POST", body: new Uint8Array(again.body) });
        assert.deepEqual({ status: retry.status, body: await retry.json() }, { status: 200, body: { id: again.eventId } });
      } finally {
        await server.stop();
      }
    });
  });
}
