/**
 * The PostgreSQL the tests use: PERISCOPE_TEST_DATABASE_URL, else the local server's test database
 * (created by .ci/run). Every PostgreSQL test calls `postgresForTests()`: when the server is not
 * reachable the tests are skipped with the reason printed — and under CI=true that is a failure.
 * Each test gets its own schema (`freshSchema`), dropped afterwards: no test sees another's rows.
 */
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import pg from "pg";

export const DEFAULT_TEST_DATABASE_URL = "postgres://periscope:periscope@127.0.0.1:5432/periscope_test";
export const testDatabaseUrl = process.env.PERISCOPE_TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;

export interface TestSchema {
  schema: string;
  /** The test database URL with this schema as the search_path of every connection. */
  url: string;
  drop(): Promise<void>;
}

async function probe(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Resolves to true when PostgreSQL is reachable. Otherwise registers one skipped test naming the
 * reason (or, under CI=true, one failing test) and resolves to false.
 */
export async function postgresForTests(suite: string): Promise<boolean> {
  const problem = await probe(testDatabaseUrl);
  if (problem === null) return true;
  const reason = `PostgreSQL not reachable at ${testDatabaseUrl.replace(/:[^:@/]*@/, ":***@")} (${problem}); set PERISCOPE_TEST_DATABASE_URL or start the local server`;
  if (process.env.CI === "true") {
    test(`${suite}: PostgreSQL required under CI=true`, () => {
      throw new Error(`${reason} — under CI=true a skipped engine is a failure`);
    });
  } else {
    console.log(`# ${suite}: SKIPPED — ${reason}`);
    test(suite, { skip: reason }, () => undefined);
  }
  return false;
}

export async function freshSchema(): Promise<TestSchema> {
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
