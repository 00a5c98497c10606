/**
 * A short fuzz run (the long one is `npm run fuzz`): bad input mixed with valid traffic never gets a
 * 5xx, never crashes the server, and every valid envelope beside it is stored — on SQLite, and on
 * PostgreSQL when the tests' server is reachable (its text cannot hold NUL, which valid events carry).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runFuzz } from "../fuzz/run";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;

describe("SQLite", () => {
  before(async () => {
    server = await startServer();
  });
  after(async () => server.stop());

  it("answers 600 fuzzed requests without a 5xx and stores every valid envelope among them", async () => {
    await fuzzAndCheck(600);
  });
});

if (await postgresForTests("fuzz on PostgreSQL")) {
  describe("PostgreSQL", () => {
    let schema: TestSchema;
    before(async () => {
      schema = await freshSchema();
      server = await startServer({ DATABASE_URL: schema.url });
    });
    after(async () => {
      await server.stop();
      await schema.drop();
    });

    it("answers 300 fuzzed requests without a 5xx and stores every valid envelope among them", async () => {
      await fuzzAndCheck(300);
    });
  });
}

async function fuzzAndCheck(count: number): Promise<void> {
  const report = await runFuzz({ ...server, seed: 20261122, count, concurrency: 8 });
  assert.equal(report.sent, count);
  assert.deepEqual(report.failures, []);
  assert.deepEqual(report.refusedValid, []);
  assert.ok(report.acknowledged.length > count / 10, `valid envelopes were part of the mix (${report.acknowledged.length})`);
  const kinds = Object.keys(report.statuses);
  assert.ok(kinds.length >= 12, `many kinds of bad input were sent: ${kinds.join(", ")}`);

  for (const eventId of report.acknowledged) {
    const response = await server.api(`/api/0/projects/default/default/events/${eventId}/`);
    assert.equal(response.status, 200, `acknowledged event ${eventId} is stored`);
  }
  assert.match(server.output(), /Periscope is running/);
  assert.doesNotMatch(server.output(), /server error \(ingest/, "the ingest door reported no fault of its own");
}
