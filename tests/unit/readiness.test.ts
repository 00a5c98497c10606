/**
 * The lines and answers server.ts gives itself: which database a configuration names (never its
 * password), what counts as the health route, and the health route's database check (one ping at a
 * time, "unreachable" on failure or after its timeout).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { loadConfig } from "../../src/config";
import { databaseLabel } from "../../src/database-label";
import { databaseCheck, isHealthRequest } from "../../src/http/readiness";

describe("databaseLabel", () => {
  it("names the SQLite file by its absolute path", () => {
    assert.equal(databaseLabel(loadConfig({ DATA_DIR: "relative/dir" })), `SQLite at ${path.resolve("relative/dir", "periscope.sqlite")}`);
  });

  it("names PostgreSQL by host, port and database, without user or password", () => {
    const label = (url: string) => databaseLabel(loadConfig({ DATABASE_URL: url }));
    assert.equal(label("postgres://periscope:s3cret@db.internal:6432/periscope?sslmode=require"), "PostgreSQL at db.internal:6432/periscope");
    assert.equal(label("postgresql://ana:pw@db/metrics"), "PostgreSQL at db:5432/metrics");
    assert.equal(label("postgres://ana@%2Fvar%2Frun%2Fpostgresql/"), "PostgreSQL at /var/run/postgresql:5432/ana");
    assert.equal(label("postgres:///periscope?host=/var/run/postgresql"), "PostgreSQL at /var/run/postgresql:5432/periscope");
  });
});

describe("the health route", () => {
  it("is /_health with or without a query string, nothing else", () => {
    assert.deepEqual(
      ["/_health", "/_health?probe=lb", "/_health/", "/_healthz", "/api/0/_health", "/"].map(isHealthRequest),
      [true, true, false, false, false, false],
    );
  });

  it("runs one ping at a time, shared by the checks that arrive meanwhile", async () => {
    let pings = 0;
    let answer: () => void = () => undefined;
    const check = databaseCheck(() => {
      pings++;
      return new Promise<void>((resolve) => (answer = resolve));
    }, 5_000);
    const waiting = [check(), check(), check()];
    answer();
    assert.deepEqual(await Promise.all(waiting), ["ok", "ok", "ok"]);
    assert.equal(pings, 1);
    const next = check();
    answer();
    assert.equal(await next, "ok");
    assert.equal(pings, 2);
  });

  it("says unreachable when the ping fails or does not answer in time", async () => {
    assert.equal(await databaseCheck(() => Promise.reject(new Error("ECONNREFUSED")))(), "unreachable");
    assert.equal(await databaseCheck(() => new Promise<void>(() => undefined), 20)(), "unreachable");
  });
});
