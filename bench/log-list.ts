/**
 * `npm run bench:logs [-- --lines 1000000 --engine sqlite|postgres|both --runs 40 --ingest-lines 2000]`
 *
 * The log explorer's reads at volume (issue 38): seeds `lines` log lines over the last 7 days into
 * one project through the storage interface (SQLite with its commit thread, as the server runs it;
 * PostgreSQL in a fresh schema of PERISCOPE_BENCH_DATABASE_URL or the test database), then times
 * filtered pages of 50 lines — the explorer's queries: newest first, by level, full text, attribute,
 * level with text, a rare attribute — `runs` times each, interleaved, while a writer commits log
 * containers of 100 lines beside them (`ingest-lines` per second, through the same commit path).
 * Prints p50/p95/max per query and the lines the writer committed during the reads.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createPostgresStorage } from "../src/storage/postgres";
import { createSqliteStorage } from "../src/storage/sqlite";
import type { LogLevel, LogListQuery, LogsRecord, Project } from "../src/model";
import type { Storage } from "../src/storage/types";
import { median, percentile } from "./load";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "1000000" },
    engine: { type: "string", default: "both" },
    runs: { type: "string", default: "40" },
    "ingest-lines": { type: "string", default: "2000" },
  },
});
const LINES = Number(args.lines);
const RUNS = Number(args.runs);
const INGEST_LINES = Number(args["ingest-lines"]);
const DATABASE_URL =
  process.env.PERISCOPE_BENCH_DATABASE_URL || process.env.PERISCOPE_TEST_DATABASE_URL || "postgres://periscope:periscope@127.0.0.1:5432/periscope_test";
const DAY = 86_400_000;
const SPAN = 7 * DAY;
const PAGE = 50;

/** A level mix like an application's: mostly info and debug, few errors. */
const LEVELS: LogLevel[] = [...Array<LogLevel>(12).fill("info"), ...Array<LogLevel>(4).fill("debug"), "warn", "warn", "error", "fatal"];
const SEVERITY: Record<LogLevel, number> = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
const ROUTES = Array.from({ length: 20 }, (_, i) => `/api/resource-${i}/:id`);
const WORDS = ["handled", "cache miss", "retrying", "connection reset", "timeout", "payment accepted", "queued", "slow query"];

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** Line `n` of the seed (deterministic), at `ms`. */
function lineOf(n: number, ms: number): LogsRecord["logs"][number] {
  const level = LEVELS[n % LEVELS.length]!;
  return {
    id: hex(n, 32), traceId: hex(Math.floor(n / 10), 32), spanId: hex(n, 16), timestamp: ms, timestampNs: `${BigInt(Math.floor(ms)) * 1_000_000n}`,
    level, severityNumber: SEVERITY[level], body: `request ${n} ${WORDS[n % WORDS.length]} for ${ROUTES[n % ROUTES.length]} in ${n % 997} ms`,
    attributes: {
      "sentry.release": { value: "shop-api@2.4.1", type: "string" },
      "sentry.environment": { value: "production", type: "string" },
      "sentry.sdk.name": { value: "sentry.javascript.node", type: "string" },
      "http.route": { value: ROUTES[n % ROUTES.length]!, type: "string" },
      "user.id": { value: `u-${n % 1000}`, type: "string" },
      "order.id": { value: n, type: "integer" },
    },
  };
}

async function seed(storage: Storage, project: Project, now: number): Promise<void> {
  const started = Date.now();
  const perCommit = 5_000;
  for (let first = 0; first < LINES; first += perCommit) {
    const records: LogsRecord[] = [];
    for (let start = first; start < Math.min(first + perCommit, LINES); start += 100) {
      const logs = [];
      // Oldest first, spread evenly over SPAN.
      for (let n = start; n < Math.min(start + 100, LINES); n++) logs.push(lineOf(n, now - SPAN + (n * SPAN) / LINES));
      records.push({ kind: "logs", projectId: project.id, received: now, logs });
    }
    await storage.ingest.commit(records);
  }
  console.log(`seeded ${LINES} lines in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The explorer's queries: the last 24 hours unless said otherwise, 50 lines a page. */
function queries(projectId: string, now: number): [string, LogListQuery][] {
  const base = { projectIds: [projectId], limit: PAGE, start: now - DAY };
  return [
    ["newest, 24h", base],
    ["level error, 24h", { ...base, levels: ["error"] }],
    ["level fatal, 7d", { ...base, start: now - SPAN, levels: ["fatal"] }],
    ["text 'connection reset', 24h", { ...base, text: ["connection reset"] }],
    ["attribute http.route, 24h", { ...base, attributes: [["http.route", ROUTES[7]!]] }],
    ["level warn + text 'timeout', 24h", { ...base, levels: ["warn"], text: ["timeout"] }],
    ["attribute user.id (1 in 1000), 24h", { ...base, attributes: [["user.id", "u-42"]] }],
    ["text matching nothing, 24h", { ...base, text: ["no such words"] }],
    ["page 2 of newest, 24h", base],
  ];
}

async function measure(engine: string, storage: Storage, project: Project): Promise<void> {
  const now = Date.now();
  await seed(storage, project, now);
  let writing = true;
  let written = 0;
  // The writer: containers of 100 lines at INGEST_LINES per second, through the same commit path.
  const writer = (async () => {
    let n = LINES;
    const tick = 100;
    while (writing) {
      const started = Date.now();
      const records: LogsRecord[] = [];
      for (let i = 0; i < (INGEST_LINES * tick) / 1000; i += 100) {
        const logs = Array.from({ length: 100 }, () => lineOf(n++, Date.now()));
        records.push({ kind: "logs", projectId: project.id, received: Date.now(), logs });
      }
      await storage.ingest.commit(records);
      written += records.length * 100;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, tick - (Date.now() - started))));
    }
  })();
  const list = queries(project.id, now);
  const times = new Map<string, number[]>(list.map(([name]) => [name, []]));
  const readStarted = Date.now();
  for (let run = 0; run < RUNS; run++) {
    for (const [name, query] of list) {
      let asked = query;
      if (name.startsWith("page 2")) {
        const first = await storage.logs.list(query);
        asked = first.nextCursor ? { ...query, cursor: first.nextCursor } : query;
      }
      const started = performance.now();
      const page = await storage.logs.list(asked);
      times.get(name)!.push(performance.now() - started);
      // SQLite reads are synchronous: without a turn of the event loop in between, the writer's
      // timer and its commits' answers would wait until every read is done (as a server's requests do not).
      await new Promise((resolve) => setImmediate(resolve));
      if (run === 0 && page.items.length === 0 && !name.includes("nothing")) console.warn(`${engine}: ${name} found no lines`);
    }
  }
  const readSeconds = (Date.now() - readStarted) / 1000;
  writing = false;
  await writer;
  console.table(
    list.map(([name]) => {
      const values = times.get(name)!;
      return { engine, query: name, runs: values.length, "p50 ms": median(values).toFixed(1), "p95 ms": percentile(values, 95).toFixed(1), "max ms": Math.max(...values).toFixed(1) };
    }),
  );
  console.log(`${engine}: the writer committed ${written} lines in ${readSeconds.toFixed(1)} s of reads (${Math.round(written / readSeconds)} lines/s)`);
}

async function withProject(storage: Storage): Promise<Project> {
  const organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  return storage.projects.create({ organizationId: organization.id, slug: "logs", name: "Logs", platform: "node" });
}

async function runSqlite(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-bench-logs-"));
  const storage = createSqliteStorage(dir, { topology: { engine: "sqlite", commits: "thread", checkpointIntervalMs: 5 } });
  storage.ingest.start?.();
  try {
    await measure("sqlite", storage, await withProject(storage));
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPostgres(): Promise<void> {
  const schema = `bench_logs_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const storage = await createPostgresStorage({ url: url.toString(), poolSize: 10 });
  try {
    await measure("postgres", storage, await withProject(storage));
  } finally {
    await storage.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

console.log(`bench:logs: ${LINES} lines over 7 days, ${RUNS} runs per query, pages of ${PAGE}, ${INGEST_LINES} lines/s written during the reads`);
if (args.engine === "sqlite" || args.engine === "both") await runSqlite();
if (args.engine === "postgres" || args.engine === "both") await runPostgres();
