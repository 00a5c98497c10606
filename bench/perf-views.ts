/**
 * `npm run bench:perf [-- --spans 1000000 --engine sqlite|postgres|both --runs 20 --names 50]`
 *
 * The performance views' reads (issue 36, ADR 0022) at volume, while ingest runs: seeds `spans` spans
 * into one project — real @sentry/browser page load containers (15 spans, one segment each, under
 * `names` route names, durations varied) and legacy transactions (a root and 9 children) in equal
 * numbers of segments — ending over the last 24 hours, then times, `runs` times each, the services
 * the pages call: the transactions list (24 h, hourly series), one transaction's summary, one trace
 * (spans and errors) and the web vitals. During the timed reads a writer commits another container
 * every 20 ms (SQLite: on the commit thread, as the server runs). Prints p50 and p95 per read.
 * PostgreSQL: PERISCOPE_BENCH_DATABASE_URL, else the test database (a fresh schema, dropped after).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { IngestRecord, Project, SpanContainerRecord, SpanData, TransactionPayload } from "../src/model";
import { getTrace } from "../src/services/telemetry/get-trace";
import { transactionSummary, transactionsReport, webVitalsReport } from "../src/services/telemetry/performance";
import { createPostgresStorage } from "../src/storage/postgres";
import { createSqliteStorage } from "../src/storage/sqlite";
import type { Storage } from "../src/storage/types";
import { freshSchema } from "../tests/helpers/postgres";
import { percentile } from "./load";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    spans: { type: "string", default: "1000000" }, engine: { type: "string", default: "both" }, runs: { type: "string", default: "20" },
    names: { type: "string", default: "50" },
  },
});
const SPANS = Number(args.spans);
const RUNS = Number(args.runs);
const NAMES = Number(args.names);
const BATCH = 200;
const DAY = 86_400_000;
const HOUR = 3_600_000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const lines = readFileSync(path.join(root, "tests/fixtures/envelopes/telemetry/browser-span-v2-pageload.envelope"), "latin1").split("\n");
const ITEMS = (JSON.parse(lines[2]!) as { items: Record<string, unknown>[] }).items;
const route = (n: number) => `/route/${n % NAMES}`;

/** Page load `n`: the fixture's spans with trace `n`'s ids, its segment renamed and lengthened, ending at `end` (ms). */
function container(projectId: string, n: number, end: number): SpanContainerRecord {
  const lastEnd = Math.max(...ITEMS.map((item) => Number(item.end_timestamp)));
  const shift = end / 1000 - lastEnd;
  const items = ITEMS.map((item, i) => {
    const attributes = { ...(item.attributes as Record<string, unknown>), "sentry.segment.name": { type: "string", value: route(n) } };
    const start = Number(item.start_timestamp) + shift - (item.is_segment ? (n % 97) / 100 : 0);
    return { ...item, trace_id: hex(n, 32), span_id: hex(n * 16 + i, 16), start_timestamp: start, end_timestamp: Number(item.end_timestamp) + shift, attributes };
  });
  return { kind: "span_container", projectId, json: JSON.stringify({ items }), itemCount: items.length, receivedAt: Date.now(), shift: 0, sdkName: "sentry.javascript.browser" };
}

/** A legacy transaction `n` (root and 9 children) ending at `end` (ms). */
function transaction(projectId: string, n: number, end: number): IngestRecord {
  const traceId = hex(n, 32);
  const duration = 20 + (n % 480);
  const name = route(n);
  const span = (i: number): SpanData => ({
    traceId, spanId: hex(n * 16 + i, 16), parentSpanId: i === 0 ? null : hex(n * 16, 16), segmentId: hex(n * 16, 16), eventId: hex(n, 32),
    isSegment: i === 0, op: i === 0 ? "http.server" : i % 2 ? "db.query" : "http.client", name: i === 0 ? name : `SELECT * FROM t${i} WHERE id = ${n}`,
    status: n % 50 === 0 ? "internal_error" : "ok", start: end - duration + (i === 0 ? 0 : i), end: i === 0 ? end : end - duration + i + 5,
    segmentName: name, release: "bench@1", environment: "production", sdkName: "sentry.javascript.node", attributes: {}, measurements: {},
  });
  const payload: TransactionPayload = {
    type: "transaction", event_id: hex(n, 32), timestamp: end / 1000, start_timestamp: (end - duration) / 1000, received: Date.now() / 1000,
    platform: "node", level: "info", environment: "production", release: "bench@1", transaction: name, tags: [], breadcrumbs: [], exception: [],
    errors: [], contexts: { trace: { trace_id: traceId, span_id: hex(n * 16, 16), op: "http.server" } }, spans: [], measurements: {},
  };
  return { kind: "transaction", projectId, transaction: payload, spans: Array.from({ length: 10 }, (_, i) => span(i)) };
}

async function seed(storage: Storage, project: Project, now: number): Promise<number> {
  // Equal numbers of segments of both kinds: 25 spans per pair.
  const pairs = Math.ceil(SPANS / 25);
  let spans = 0;
  for (let first = 0; first < pairs; first += BATCH) {
    const records: IngestRecord[] = [];
    for (let p = first; p < Math.min(first + BATCH, pairs); p++) {
      const end = now - DAY + ((p + 0.5) * DAY) / pairs;
      records.push(container(project.id, 2 * p, end), transaction(project.id, 2 * p + 1, end));
      spans += 25;
    }
    await storage.ingest.commit(records);
  }
  return spans;
}

async function timed(read: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await read();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // SQLite reads finish synchronously: a pause lets the writer's timer in between runs.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await read();
    runs.push(performance.now() - started);
  }
  return { p50: percentile(runs, 50), p95: percentile(runs, 95) };
}

async function run(engine: string, storage: Storage): Promise<void> {
  const organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  const project = await storage.projects.create({ organizationId: organization.id, slug: "shop", name: "shop", platform: "javascript" });
  const now = Date.now();
  const seeding = performance.now();
  const spans = await seed(storage, project, now);
  console.log(`bench:perf ${engine}: ${spans} spans seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${RUNS} runs per read, ingest running`);

  // Ingest while reading: a container every 20 ms, as the group-commit writer would commit them.
  let writing = true;
  let written = 0;
  const writer = (async () => {
    for (let n = 10_000_000; writing; n++) {
      await storage.ingest.commit([container(project.id, n, Date.now())]);
      written++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const window = { start: now - DAY, end: now + HOUR };
  const table: Record<string, string>[] = [];
  try {
    const reads: [string, () => Promise<unknown>][] = [
      ["transactions list (24 h, hourly series)", () => transactionsReport(storage, [project], window, HOUR)],
      ["transaction summary", () => transactionSummary(storage, [project], window, route(7), HOUR)],
      ["trace view (spans + errors)", () => getTrace(storage, [project], hex(2 * 1000 + 1, 32))],
      ["trace view, streamed page load", () => getTrace(storage, [project], hex(2 * 1000, 32))],
      ["web vitals (24 h)", () => webVitalsReport(storage, [project], window, HOUR)],
    ];
    for (const [read, call] of reads) {
      const { p50, p95 } = await timed(call);
      table.push({ engine, read, "p50 ms": p50.toFixed(1), "p95 ms": p95.toFixed(1) });
    }
  } finally {
    writing = false;
    await writer;
  }
  console.table(table);
  console.log(`bench:perf ${engine}: ${written} containers committed during the reads`);
}

const engines = args.engine === "both" ? ["sqlite", "postgres"] : [args.engine!];
for (const engine of engines) {
  if (engine === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-bench-perf-"));
    const storage = createSqliteStorage(dir, { topology: { engine: "sqlite", commits: "thread", checkpointIntervalMs: null } });
    storage.ingest.start?.();
    try {
      await run("sqlite", storage);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  } else if (engine === "postgres") {
    const schema = await freshSchema().catch((error: unknown) => {
      console.log(`bench:perf postgres: skipped, the test database is not reachable (${String(error)})`);
      return null;
    });
    if (!schema) continue;
    const storage = await createPostgresStorage({ url: process.env.PERISCOPE_BENCH_DATABASE_URL ?? schema.url, poolSize: 4 });
    try {
      await run("postgres", storage);
    } finally {
      await storage.close();
      await schema.drop();
    }
  } else {
    throw new Error(`--engine: sqlite, postgres or both, not ${engine}`);
  }
}
