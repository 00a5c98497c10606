/**
 * Two Periscope processes on one fresh PostgreSQL schema, as a scaled-out deployment runs: the
 * first bootstraps the owner account, the second joins (two bootstrapping at once would race).
 */
import { freshSchema, type TestSchema } from "./postgres";
import { startServer, type TestServer } from "./server";

export interface TwoServers {
  a: TestServer;
  b: TestServer;
  schema: TestSchema;
  stop(): Promise<void>;
}

export async function startTwoServers(env: Record<string, string> = {}): Promise<TwoServers> {
  const schema = await freshSchema();
  const a = await startServer({ ...env, DATABASE_URL: schema.url });
  const b = await startServer({ ...env, DATABASE_URL: schema.url }, { bootstrapOwner: false });
  return {
    a,
    b,
    schema,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await schema.drop();
    },
  };
}
