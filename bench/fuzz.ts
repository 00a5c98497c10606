/**
 * `npm run fuzz [-- --count 10000 --seed 1 --concurrency 16]`: the long fuzz run against a fresh
 * server. Prints the answers per kind of input and fails on any 5xx, dropped request or valid
 * envelope that was refused or not stored.
 */
import { parseArgs } from "node:util";
import { runFuzz } from "../tests/fuzz/run";
import { startServer } from "../tests/helpers/server";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    concurrency: { type: "string", default: "16" },
  },
});

const server = await startServer();
try {
  const seed = Number(values.seed);
  const started = performance.now();
  const report = await runFuzz({ ...server, seed, count: Number(values.count), concurrency: Number(values.concurrency) });
  let missing = 0;
  for (const eventId of report.acknowledged) {
    const response = await fetch(`${server.baseUrl}/api/0/projects/default/default/events/${eventId}/`);
    if (response.status !== 200) missing++;
  }
  console.log(`fuzz: seed ${seed}, ${report.sent} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.table(report.statuses);
  console.log(`5xx or dropped: ${report.failures.length}; valid refused: ${report.refusedValid.length}; valid acknowledged: ${report.acknowledged.length}, not stored: ${missing}`);
  for (const failure of report.failures.slice(0, 10)) console.log("failure:", failure);
  if (report.failures.length > 0 || report.refusedValid.length > 0 || missing > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
