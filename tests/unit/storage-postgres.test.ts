import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { accountsContract } from "../contract/accounts-suite";
import { alertsContract } from "../contract/alerts-suite";
// Metric alerts (issue 34 item 2).
import { metricAlertsContract } from "../contract/metric-alerts-suite";
import { keyControlsContract } from "../contract/key-controls-suite";
import { quotasContract } from "../contract/quotas-suite";
import { privacyContract } from "../contract/privacy-suite";
import { releaseContract } from "../contract/release-suite";
import { issueWorkflowContract } from "../contract/issue-workflow-suite";
import { storageContract, type EngineFactory } from "../contract/suite";
import { telemetryContract } from "../contract/telemetry-suite";
import { retentionContract } from "../contract/retention-suite";
import { spanContract } from "../contract/span-suite";
import { logContract } from "../contract/log-suite";
import { attachmentContract } from "../contract/attachment-suite";
import { monitorContract } from "../contract/monitor-suite";
// Performance (issue 36)
import { performanceContract } from "../contract/performance-suite";
import { createPostgresStorage } from "../../src/storage/postgres";
import { PARTITIONED_TABLES } from "../../src/storage/postgres/partitions";
import type { Storage } from "../../src/storage/types";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";

const schemas = new Map<Storage, TestSchema>();

const postgres: EngineFactory = {
  async create() {
    const schema = await freshSchema();
    const storage = await createPostgresStorage({ url: schema.url, poolSize: 4 });
    schemas.set(storage, schema);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    await schemas.get(storage)!.drop();
    schemas.delete(storage);
  },
  storedNul: "\uFFFD",
};

if (await postgresForTests("storage contract: postgres")) {
  storageContract("postgres", postgres);
  telemetryContract("postgres", postgres);
  spanContract("postgres", postgres);
  performanceContract("postgres", postgres);
  logContract("postgres", postgres);
  attachmentContract("postgres", postgres);
  retentionContract("postgres", postgres);
  accountsContract("postgres", postgres);
  releaseContract("postgres", postgres);
  issueWorkflowContract("postgres", postgres);
  keyControlsContract("postgres", postgres);
  quotasContract("postgres", postgres);
  privacyContract("postgres", postgres);
  // A second storage on the same schema stands for a second process.
  monitorContract("postgres", postgres, { second: (storage) => createPostgresStorage({ url: schemas.get(storage)!.url, poolSize: 2 }) });
  alertsContract("postgres", postgres);
  metricAlertsContract("postgres", postgres);
}

if (await postgresForTests("postgres engine specifics")) {
  describe("postgres engine specifics", () => {
    it("tells another process's key-change listeners about a key created here (LISTEN/NOTIFY)", async () => {
      const here = await postgres.create();
      const there = await createPostgresStorage({ url: schemas.get(here)!.url, poolSize: 1 });
      try {
        const organization = await here.organizations.create({ slug: "acme", name: "Acme" });
        const project = await here.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: null });
        let calls = 0;
        there.onKeysChanged(() => calls++);
        const key = await here.keys.create({ projectId: project.id, label: "new" });
        for (let waited = 0; calls === 0 && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
        assert.ok(calls > 0);
        assert.deepEqual(await there.keys.getByPublicKey(key.publicKey), key);
      } finally {
        await there.close();
        await postgres.destroy(here);
      }
    });

    it("admits exactly one person through an invite accepted from two processes at once", async () => {
      const here = await postgres.create();
      const there = await createPostgresStorage({ url: schemas.get(here)!.url, poolSize: 4 });
      try {
        const organization = await here.organizations.create({ slug: "acme", name: "Acme" });
        const invites = await Promise.all(
          ["1", "2", "3", "4", "5"].map((digit) =>
            here.accounts.invites.create({
              organizationId: organization.id, role: "member", teamIds: [], email: null, invitedByUserId: null,
              tokenHash: digit.repeat(64), expiresAt: Date.now() + 3_600_000,
            }),
          ),
        );
        for (const [index, invite] of invites.entries()) {
          const results = await Promise.all(
            [here, there, here, there].map((storage, i) => storage.accounts.invites.markAccepted(invite.id, 1_000 + i)),
          );
          assert.equal(results.filter(Boolean).length, 1);
          const stored = await there.accounts.invites.getByTokenHash(String(index + 1).repeat(64));
          assert.deepEqual(stored, { ...invite, acceptedAt: 1_000 + results.indexOf(true) });
        }
      } finally {
        await there.close();
        await postgres.destroy(here);
      }
    });

    it("creates today's and the next two days' partitions of every telemetry table at start", async () => {
      const storage = await postgres.create();
      try {
        const schema = schemas.get(storage)!;
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        const { rows } = await client.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
        );
        await client.end();
        const days = [0, 1, 2].map((n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10).replace(/-/g, ""));
        const expected = PARTITIONED_TABLES.flatMap((table) => days.map((day) => `${table}_p${day}`)).sort();
        assert.deepEqual(rows.map((row) => row.name).filter((name) => expected.includes(name)).sort(), expected);
      } finally {
        await postgres.destroy(storage);
      }
    });

    // Logs' text search (issue 38): pg_trgm is available on the test server.
    it("gives the log body a trigram index at start, on every day partition, and says nothing about it", async () => {
      const schema = await freshSchema();
      const notices: string[] = [];
      const storage = await createPostgresStorage({ url: schema.url, poolSize: 2, onStartupNotice: (message) => notices.push(message) });
      const again = await createPostgresStorage({ url: schema.url, poolSize: 1, onStartupNotice: (message) => notices.push(message) });
      const client = new pg.Client({ connectionString: schema.url });
      try {
        await client.connect();
        const { rows } = await client.query<{ table: string; definition: string }>(
          `SELECT tablename AS table, indexdef AS definition FROM pg_indexes
           WHERE schemaname = current_schema() AND tablename LIKE 'logs%' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY 1`,
        );
        const partitions = await client.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'logs'::regclass ORDER BY 1`,
        );
        assert.deepEqual(rows.map((row) => row.table), ["logs", ...partitions.rows.map((row) => row.name)]);
        assert.ok(partitions.rows.length >= 3);
        assert.match(rows[0]!.definition, /USING gin \(body [a-z_."]+gin_trgm_ops\)/);
        assert.deepEqual(notices, []);
      } finally {
        await client.end();
        await again.close();
        await storage.close();
        await schema.drop();
      }
    });
  });
}
