/**
 * What a per-key rate limit costs a request on PostgreSQL: the shared counter's upsert
 * (src/storage/app/key-rates.ts), one per request that carries an event, only for keys with a
 * limit. Sequential (latency) and 32 at a time (throughput under the ingest door's concurrency).
 *
 * `npx tsx bench/key-rates.ts [count]` against PERISCOPE_TEST_DATABASE_URL (a fresh schema, dropped after).
 */
import { createPostgresStorage } from "../src/storage/postgres";
import { freshSchema } from "../tests/helpers/postgres";

const count = Number(process.argv[2] ?? 5000);
const schema = await freshSchema();
const storage = await createPostgresStorage({ url: schema.url, poolSize: 10 });
try {
  const organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  const project = await storage.projects.create({ organizationId: organization.id, slug: "bench", name: "Bench", platform: null });
  const key = await storage.keys.create({ projectId: project.id, label: "limited" });
  const window = Math.floor(Date.now() / 1000 / 60) * 60;
  for (let i = 0; i < 200; i++) await storage.keyRates.add(key.id, window, 1); // warm-up
  const latencies: number[] = [];
  let started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await storage.keyRates.add(key.id, window, 1);
    latencies.push(performance.now() - t);
  }
  const sequential = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(3);
  console.log(`sequential: ${count} upserts in ${sequential.toFixed(0)} ms: ${(count / (sequential / 1000)).toFixed(0)}/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next++ < count) await storage.keyRates.add(key.id, window, 1);
  }));
  const concurrent = performance.now() - started;
  console.log(`32 at a time on one key: ${count} upserts in ${concurrent.toFixed(0)} ms: ${(count / (concurrent / 1000)).toFixed(0)}/s`);
} finally {
  await storage.close();
  await schema.drop();
}
