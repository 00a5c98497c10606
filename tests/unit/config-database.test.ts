import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config";
import { createPostgresStorage } from "../../src/storage/postgres";

describe("database configuration", () => {
  it("uses SQLite by default, 10 pooled connections and 90 days of retention", () => {
    const config = loadConfig({});
    assert.deepEqual([config.database, config.retentionDays], [{ engine: "sqlite" }, 90]);
  });

  it("selects PostgreSQL with DATABASE_URL and takes the pool size and retention", () => {
    const config = loadConfig({ DATABASE_URL: "postgresql://u:p@db:5432/periscope", DATABASE_POOL_SIZE: "25", RETENTION_DAYS: "30" });
    assert.deepEqual([config.database, config.retentionDays], [{ engine: "postgres", url: "postgresql://u:p@db:5432/periscope", poolSize: 25 }, 30]);
  });

  it("reports every bad database key at once", () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: "mysql://db/x", DATABASE_POOL_SIZE: "0", RETENTION_DAYS: "-1" }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 3 &&
        error.problems.every((p) => /^(DATABASE_URL|DATABASE_POOL_SIZE|RETENTION_DAYS):/.test(p)),
    );
  });

  it("fails to start with a clear message, password hidden, when PostgreSQL is unreachable", async () => {
    await assert.rejects(createPostgresStorage({ url: "postgres://periscope:secret@127.0.0.1:1/periscope", poolSize: 1 }), {
      name: "DatabaseStartupError",
      message: /^cannot use PostgreSQL at postgres:\/\/periscope:\*\*\*@127\.0\.0\.1:1\/periscope \(DATABASE_URL\): .*ECONNREFUSED/,
    });
  });
});
