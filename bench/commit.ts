/**
 * `npm run bench:commit [-- --batches 200 --batch 100 --warm 200]`
 *
 * What one SQLite commit costs per request, by kind of request of the realistic mix (bench/mix.ts):
 * the envelopes are parsed and normalised first (not timed), turned into commit records as the
 * commit thread is handed them, a batch's outcomes summed (timed apart: with SQLITE_COMMIT_THREAD
 * this part runs on the main thread, `handOver` in src/storage/sqlite/commit-records.ts),
 * then committed in batches as the commit thread does (span containers are read as part of it), on a fresh database that already holds
 * `warm` batches. Prints wall time, CPU (user + system) and WAL pages written per request;
 * checkpoints are off on the measuring connection so the WAL counts every page. For changes to the
 * write path (indexes, payload layout), where the HTTP benchmark is too noisy to see a few per cent.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseEnvelope } from "../src/ingest/envelope";
import { processEnvelope } from "../src/ingest/pipeline";
import { createItemRegistry } from "../src/items";
import { ensureDefaults } from "../src/services/projects/ensure-defaults";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../src/storage/sqlite";
import { openDatabase } from "../src/storage/sqlite/db";
import { handOver, type HandedRecord } from "../src/storage/sqlite/commit-records";
import { spanGroupsOf } from "../src/storage/sqlite/span-groups";
import { readSpanContainers } from "../src/items/span-containers";
import { sqliteCommitter, sqliteIngest } from "../src/storage/sqlite/ingest";
import type { IngestRecord } from "../src/model";
import { REQUEST_KINDS, renderBody, templatesOfKind } from "./kinds";
import type { Template } from "./load";
import { realisticMix } from "./mix";

const { values: args } = parseArgs({
  options: {
    batches: { type: "string", default: "200" },
    batch: { type: "string", default: "100" },
    warm: { type: "string", default: "200" },
  },
});
const batches = Number(args.batches);
const batchSize = Number(args.batch);

const registry = createItemRegistry({ maxEventBytes: 1 << 20 });

/** Each template with a fresh id where it has one (bench/load.ts), parsed and normalised. */
function recordsOf(templates: Template[], requests: number, projectId: string, start: number): IngestRecord[] {
  const records: IngestRecord[] = [];
  for (let i = 0; i < requests; i++) {
    const template = templates[(start + i) % templates.length]!;
    const envelope = parseEnvelope(renderBody(template));
    const context = { projectId, envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "bench" };
    records.push(...processEnvelope(envelope, registry, context).records);
  }
  return records;
}

async function measure(name: string, match: (text: string) => boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-bench-commit-"));
  const storage = createSqliteStorage(dir);
  try {
    const { project, key } = await ensureDefaults(storage);
    const mix = realisticMix(key.publicKey, 2000);
    const templates = templatesOfKind(key.publicKey, match);
    const db: Database.Database = openDatabase(path.join(dir, SQLITE_FILE_NAME));
    db.pragma("wal_autocheckpoint = 0");
    const ingest = sqliteIngest(db);
    // A database that already holds data: the first rows of an empty file cost less than later ones.
    for (let i = 0; i < Number(args.warm); i++) await ingest.commit(recordsOf(mix, batchSize, project.id, i * batchSize));
    db.pragma("wal_checkpoint(TRUNCATE)");
    const processed = Array.from({ length: batches }, (_, i) => recordsOf(templates, batchSize, project.id, i * batchSize));
    const preparing = performance.now();
    const prepared: HandedRecord[][] = processed.map((records) => handOver(records).records);
    const prepareMs = performance.now() - preparing;
    const committer = sqliteCommitter(db);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    // As the commit thread does: span containers are read there, so their reading counts as commit time.
    for (const records of prepared) committer.commit(readSpanContainers(records, spanGroupsOf).records);
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const frames = (db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[])[0]!.log;
    db.close();
    const requests = batches * batchSize;
    return {
      requests: name,
      "prepare µs": ((prepareMs * 1000) / requests).toFixed(1),
      "commit wall µs": ((wallMs * 1000) / requests).toFixed(1),
      "user µs": (cpu.user / requests).toFixed(1),
      "system µs": (cpu.system / requests).toFixed(1),
      "WAL pages": (frames / requests).toFixed(2),
    };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`bench:commit: ${batches} batches of ${batchSize} requests per kind, after ${args.warm} batches of the mix`);
const rows = [];
for (const [name, match] of Object.entries(REQUEST_KINDS)) rows.push(await measure(name, match));
console.table(rows);
