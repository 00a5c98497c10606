/**
 * `npm run bench:spans [-- --containers 20000 --runs 7]`
 *
 * The span list and trace reads on SQLite, for streamed spans stored as containers (span_groups,
 * ADR 0009) against the same spans stored as rows (`spans`), in one database and one run. Seeds
 * `containers` copies of a real @sentry/browser page load container (15 spans, one trace each, an
 * hour of end times) into one project, and the same spans as rows into another; then times each
 * query on both and prints the median of `runs`, and the ratio containers ÷ rows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readSpanContainer } from "../src/items/span";
import { createSqliteStorage } from "../src/storage/sqlite";
import type { IngestRecord, Project, SpanContainerRecord, SpanListQuery } from "../src/model";
import type { Storage } from "../src/storage/types";
import { median } from "./load";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: { containers: { type: "string", default: "20000" }, runs: { type: "string", default: "7" } },
});
const CONTAINERS = Number(args.containers);
const RUNS = Number(args.runs);
const BATCH = 100;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const TRACE = (n: number) => hex(n, 32);

/** The page load container with trace `n`'s ids, its spans moved to end within the last hour. */
function containerOf(items: Record<string, unknown>[], n: number, projectId: string, now: number): SpanContainerRecord {
  const firstEnd = Math.min(...items.map((item) => Number(item.end_timestamp)));
  const shift = now / 1000 - 3600 + (n * 3600) / CONTAINERS - firstEnd;
  const moved = items.map((item, i) => ({
    ...item, trace_id: TRACE(n), span_id: hex(n * 16 + i, 16),
    start_timestamp: Number(item.start_timestamp) + shift, end_timestamp: Number(item.end_timestamp) + shift,
  }));
  return {
    kind: "span_container", projectId, json: JSON.stringify({ items: moved }), itemCount: moved.length, receivedAt: now,
    shift: 0, sdkName: "sentry.javascript.browser",
  };
}

async function seed(storage: Storage, asContainers: Project, asRows: Project): Promise<number> {
  const lines = readFileSync(path.join(root, "tests/fixtures/envelopes/telemetry/browser-span-v2-pageload.envelope"), "latin1").split("\n");
  const items = (JSON.parse(lines[2]!) as { items: Record<string, unknown>[] }).items;
  const now = Date.now();
  let spans = 0;
  for (let first = 0; first < CONTAINERS; first += BATCH) {
    const containers: IngestRecord[] = [];
    const rows: IngestRecord[] = [];
    for (let n = first; n < Math.min(first + BATCH, CONTAINERS); n++) {
      containers.push(containerOf(items, n, asContainers.id, now));
      for (const read of readSpanContainer(containerOf(items, n, asRows.id, now))) if (read.kind === "span") rows.push(read);
    }
    spans += rows.length;
    await storage.ingest.commit(containers);
    await storage.ingest.commit(rows);
  }
  return spans;
}

/** Median ms of `read` over RUNS runs, after one unmeasured. */
async function timed(read: () => Promise<unknown>): Promise<number> {
  await read();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await read();
    runs.push(performance.now() - started);
  }
  return median(runs);
}

async function pages(storage: Storage, query: Omit<SpanListQuery, "cursor">, count: number): Promise<number> {
  let cursor: string | null = null;
  let items = 0;
  for (let page = 0; page < count; page++) {
    const result = await storage.spans.list({ ...query, ...(cursor ? { cursor } : {}) });
    items += result.items.length;
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

const dir = mkdtempSync(path.join(tmpdir(), "periscope-bench-spans-"));
const storage = createSqliteStorage(dir, { topology: { engine: "sqlite", commits: "inline" } });
try {
  const organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  const create = (slug: string) => storage.projects.create({ organizationId: organization.id, slug, name: slug, platform: "javascript" });
  const [asContainers, asRows] = [await create("containers"), await create("rows")];
  const seeding = performance.now();
  const spans = await seed(storage, asContainers, asRows);
  console.log(`bench:spans: ${CONTAINERS} page load containers, ${spans} spans per layout, seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; median of ${RUNS} runs`);

  const reads: [string, (project: Project) => Promise<unknown>][] = [
    ["list, first page of 50", (p) => pages(storage, { projectIds: [p.id], limit: 50 }, 1)],
    ["list, 10 pages of 50", (p) => pages(storage, { projectIds: [p.id], limit: 50 }, 10)],
    ["list, op in every container", (p) => pages(storage, { projectIds: [p.id], limit: 50, op: "resource.script" }, 1)],
    ["list, op in none", (p) => pages(storage, { projectIds: [p.id], limit: 50, op: "no.such.op" }, 1)],
    ["list, segments, first page", (p) => pages(storage, { projectIds: [p.id], limit: 50, isSegment: true }, 1)],
    ["list, segments, 10 pages", (p) => pages(storage, { projectIds: [p.id], limit: 50, isSegment: true }, 10)],
    ["list, one trace", (p) => pages(storage, { projectIds: [p.id], limit: 50, traceId: TRACE(CONTAINERS >> 1) }, 1)],
    ["trace", (p) => storage.spans.trace([p.id], TRACE(CONTAINERS >> 1))],
  ];
  const table = [];
  for (const [read, run] of reads) {
    const containers = await timed(() => run(asContainers));
    const rows = await timed(() => run(asRows));
    table.push({ read, "containers ms": containers.toFixed(2), "rows ms": rows.toFixed(2), "containers ÷ rows": (containers / rows).toFixed(3) });
  }
  console.table(table);
} finally {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
