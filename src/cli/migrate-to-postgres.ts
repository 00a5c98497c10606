/**
 * `periscope migrate-to-postgres --from <sqlite file | data dir> --to <postgres url>`
 *
 * Copies a whole SQLite installation into an empty PostgreSQL database: every table in dependency
 * order (app data first, then telemetry), in batches, keeping ids (identity sequences are moved past
 * them afterwards), printing progress; day partitions are created as the rows need them. At the end
 * the row count of every table is compared and the command fails on any difference. Bytes SQLite keeps
 * as files (artifact blobs, attachments) go into their PostgreSQL tables as bytea.
 * Stop the SQLite server first: the copy is of the file as it is when the command runs.
 */
import Database from "better-sqlite3";
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { columnArrays, unnestInsert, type Column } from "../storage/postgres/bulk";
import { openDatabase as openPostgres, redact, type PgDb } from "../storage/postgres/db";
import { PartitionNeeds, type PartitionedTable } from "../storage/postgres/partitions";
import { fileBlobStore } from "../storage/app/blobs";
import { SQLITE_FILE_NAME } from "../storage/sqlite";
import { unpackPayload } from "../storage/stored-payload";
import { ATTACHMENT_META, attachmentFilePath } from "../storage/attachment-rows";
import { openDatabase as openSqlite } from "../storage/sqlite/db";

const BATCH = 2_000;

interface TableCopy {
  table: string;
  /** SQLite order: stable, so a batch boundary never splits or repeats a row. */
  orderBy: string;
  /** The column whose day picks the partition, for partitioned tables. */
  partitionBy?: { table: PartitionedTable; column: string };
  /** Unpartitioned dedupe table filled from the same rows (PostgreSQL only). */
  claims?: "event_ids" | "transaction_ids";
  /** A column SQLite may keep deflated (storage/stored-payload.ts); PostgreSQL gets its text. */
  packed?: string;
  /** The SQLite table or view read, when it is not `table`. */
  source?: string;
  /** How many rows PostgreSQL must end up with, when the source may hold a row twice. */
  distinctCount?: string;
}

/** Dependency order: rows that others name by id come first. Allow-list of table names. */
const TABLES: TableCopy[] = [
  { table: "organizations", orderBy: "id" },
  { table: "projects", orderBy: "id" },
  { table: "project_keys", orderBy: "id" },
  { table: "project_options", orderBy: "project_id, name" },
  { table: "organization_privacy", orderBy: "organization_id" },
  { table: "project_privacy", orderBy: "project_id" },
  // Quotas (issue 33 item 4).
  { table: "quotas", orderBy: "organization_id, project_id, category, time_window" },
  { table: "users", orderBy: "id" },
  { table: "login_sessions", orderBy: "id" },
  { table: "api_tokens", orderBy: "id" },
  { table: "members", orderBy: "id" },
  { table: "teams", orderBy: "id" },
  { table: "team_members", orderBy: "team_id, member_id" },
  { table: "team_projects", orderBy: "team_id, project_id" },
  { table: "invites", orderBy: "id" },
  { table: "audit_log", orderBy: "id" },
  { table: "login_failures", orderBy: "key, at" },
  { table: "releases", orderBy: "id" },
  { table: "release_projects", orderBy: "release_id, project_id" },
  { table: "repositories", orderBy: "id" },
  { table: "release_commits", orderBy: "release_id, repository_id, sha" },
  { table: "deploys", orderBy: "id" },
  { table: "artifact_chunks", orderBy: "organization_id, sha1" },
  { table: "artifact_bundles", orderBy: "id" },
  { table: "artifact_bundle_projects", orderBy: "bundle_id, project_id" },
  { table: "artifact_bundle_files", orderBy: "bundle_id, url" },
  { table: "release_files", orderBy: "id" },
  // Alerts (issue 34): rules, firing state, the outbox and settings; the feed so no pending trigger is lost.
  { table: "alert_rules", orderBy: "id" },
  { table: "alert_rule_issues", orderBy: "rule_id, issue_id, condition" },
  { table: "alert_deliveries", orderBy: "id" },
  { table: "alert_issue_snoozes", orderBy: "issue_id" },
  { table: "alert_user_settings", orderBy: "user_id, project_id" },
  { table: "alert_issue_feed", orderBy: "id" },
  // Issue search: saved searches.
  { table: "saved_searches", orderBy: "id" },
  // Metric alerts (issue 34 item 2): rules with their state.
  { table: "metric_alert_rules", orderBy: "id" },
  { table: "issues", orderBy: "id" },
  { table: "issue_users", orderBy: "issue_id, user_key" },
  { table: "issue_hourly", orderBy: "issue_id, hour" },
  { table: "issue_tags", orderBy: "issue_id, key, value" },
  { table: "events", orderBy: "project_id, event_id", partitionBy: { table: "events", column: "received" }, claims: "event_ids", packed: "payload" },
  { table: "transactions", orderBy: "project_id, event_id", partitionBy: { table: "transactions", column: "received" }, claims: "transaction_ids" },
  // SQLite keeps streamed spans per container (span_groups); the view has them as rows of `spans`.
  // A span sent in two containers is there twice and stored once.
  {
    table: "spans", source: "all_spans", orderBy: "project_id, trace_id, span_id", partitionBy: { table: "spans", column: "end_ts" },
    distinctCount: "SELECT COUNT(*) AS n FROM (SELECT DISTINCT project_id, trace_id, span_id, end_ts FROM all_spans)",
  },
  // Performance samples (ADR 0022)
  { table: "segment_samples", orderBy: "project_id, end_ts, trace_id, span_id", partitionBy: { table: "segment_samples", column: "end_ts" } },
  { table: "vital_samples", orderBy: "project_id, vital, end_ts, trace_id, span_id", partitionBy: { table: "vital_samples", column: "end_ts" } },
  // Their per-hour rollups (ADR 0022 "Rollups"), and from when they are whole: PostgreSQL's own row (its
  // migration's, 0 on an empty database) stays beside SQLite's, and the reads take the later one.
  { table: "segment_rollups", orderBy: "project_id, hour, name, environment, release", partitionBy: { table: "segment_rollups", column: "hour" } },
  { table: "vital_rollups", orderBy: "project_id, hour, vital, page, environment, release", partitionBy: { table: "vital_rollups", column: "hour" } },
  { table: "perf_rollups_since", orderBy: "since", distinctCount: "SELECT COUNT(*) + 1 AS n FROM perf_rollups_since" },
  { table: "session_states", orderBy: "project_id, sid" },
  { table: "session_counts", orderBy: "project_id, hour, release, environment, health", partitionBy: { table: "session_counts", column: "hour" } },
  { table: "session_users", orderBy: "project_id, hour, release, environment, did", partitionBy: { table: "session_users", column: "hour" } },
  { table: "outcomes", orderBy: "project_id, hour, outcome, category, reason", partitionBy: { table: "outcomes", column: "hour" } },
  // Logs (issue 38).
  { table: "logs", orderBy: "project_id, timestamp, id", partitionBy: { table: "logs", column: "timestamp" } },
];

const IDENTITY_TABLES = [
  "organizations", "projects", "project_keys", "issues", "users", "login_sessions", "api_tokens", "members", "teams", "invites", "audit_log",
  "releases", "repositories", "deploys", "artifact_bundles", "release_files",
  // Alerts (issue 34).
  "alert_rules", "alert_deliveries", "alert_issue_feed",
  // Metric alerts (issue 34 item 2).
  "metric_alert_rules",
];

/** Every artifact byte the rows name: SQLite keeps them as files (DATA_DIR/blobs), PostgreSQL in artifact_blobs. */
const BLOB_NAMES = "SELECT sha1 FROM artifact_chunks UNION SELECT sha1 FROM artifact_bundle_files UNION SELECT sha1 FROM release_files";
const BLOB_BATCH_BYTES = 16 * 1024 * 1024;

async function copyBlobs(sqlite: Database.Database, pg: PgDb, dataDir: string, print: Print): Promise<void> {
  const blobs = fileBlobStore(dataDir);
  const names = (sqlite.prepare(`${BLOB_NAMES} ORDER BY 1`).all() as { sha1: string }[]).map((row) => row.sha1);
  let batch: { sha1: string; bytes: Buffer }[] = [];
  let size = 0;
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    // Through the pool: the engine's query() binds scalars only, and these are bytea.
    await pg.pool.query(
      "INSERT INTO artifact_blobs (sha1, size, data) SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[]) ON CONFLICT DO NOTHING",
      [batch.map((blob) => blob.sha1), batch.map((blob) => blob.bytes.length), batch.map((blob) => blob.bytes)],
    );
    copied += batch.length;
    batch = [];
    size = 0;
  };
  for (const sha1 of names) {
    const bytes = await blobs.read(sha1);
    // A missing file shows as a count mismatch below.
    if (!bytes) continue;
    batch.push({ sha1, bytes });
    size += bytes.length;
    if (size >= BLOB_BATCH_BYTES) await flush();
  }
  await flush();
  print(`  artifact_blobs: ${copied}/${names.length}`);
}

interface AttachmentCopy {
  project_id: number; event_id: string; id: string; filename: string; content_type: string | null; attachment_type: string; size: number;
  sha1: string; received: number;
}

/** Attachments (issue 38): rows in SQLite, bytes in DATA_DIR/attachments; PostgreSQL keeps both in `attachments`. */
async function copyAttachments(sqlite: Database.Database, pg: PgDb, dataDir: string, print: Print): Promise<void> {
  const rows = sqlite.prepare(`SELECT ${ATTACHMENT_META} FROM attachments ORDER BY project_id, event_id, id`);
  const total = (sqlite.prepare("SELECT COUNT(*) AS n FROM attachments").get() as { n: number }).n;
  let batch: (AttachmentCopy & { data: Buffer })[] = [];
  let size = 0;
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const needs = new PartitionNeeds();
    for (const row of batch) needs.add("attachments", row.received);
    await pg.partitions.ensure(pg, needs);
    const column = <K extends keyof AttachmentCopy | "data">(key: K) => batch.map((row) => row[key]);
    // Through the pool: the engine's query() binds scalars only, and the bytes are bytea.
    await pg.pool.query(
      `INSERT INTO attachments (${ATTACHMENT_META}, data)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::bigint[], $10::bytea[])
       ON CONFLICT DO NOTHING`,
      [column("project_id"), column("event_id"), column("id"), column("filename"), column("content_type"), column("attachment_type"),
        column("size"), column("sha1"), column("received"), column("data")],
    );
    copied += batch.length;
    batch = [];
    size = 0;
  };
  // Read whole first: the reads of files are awaited, and an open SQLite iterator must not span them.
  for (const row of rows.all() as AttachmentCopy[]) {
    let data: Buffer;
    try {
      data = await readFile(attachmentFilePath(dataDir, row.id));
    } catch (error) {
      // A missing file shows as a count mismatch below.
      if ((error as { code?: unknown }).code === "ENOENT") continue;
      throw error;
    }
    batch.push({ ...row, data });
    size += data.length;
    if (size >= BLOB_BATCH_BYTES) await flush();
  }
  await flush();
  print(`  attachments: ${copied}/${total}`);
}

type Scalar = string | number | boolean | null;
type Print = (line: string) => void;

export interface MigrationResult {
  ok: boolean;
  counts: { table: string; sqlite: number; postgres: number }[];
}

export function sqliteFileOf(from: string): string {
  return existsSync(from) && statSync(from).isDirectory() ? path.join(from, SQLITE_FILE_NAME) : from;
}

async function columnsOf(pg: PgDb, table: string): Promise<Column[]> {
  const rows = await pg.query<{ column_name: string; data_type: Column[1] }>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => [row.column_name, row.data_type] as const);
}

async function copyTable(sqlite: Database.Database, pg: PgDb, spec: TableCopy, print: Print): Promise<void> {
  const columns = await columnsOf(pg, spec.table);
  const source = spec.source ?? spec.table;
  const total = (sqlite.prepare(`SELECT COUNT(*) AS n FROM ${source}`).get() as { n: number }).n;
  const insert = unnestInsert(spec.table, columns, spec.distinctCount ? "ON CONFLICT DO NOTHING" : "");
  const insertClaims = spec.claims
    ? unnestInsert(spec.claims, [["project_id", "bigint"], ["event_id", "text"], ["received", "bigint"]], "ON CONFLICT DO NOTHING")
    : null;
  const select = sqlite.prepare(`SELECT ${columns.map(([name]) => name).join(", ")} FROM ${source} ORDER BY ${spec.orderBy}`).raw();
  let copied = 0;
  let lastPrint = 0;
  let batch: Scalar[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    if (spec.partitionBy) {
      const needs = new PartitionNeeds();
      const index = columns.findIndex(([name]) => name === spec.partitionBy!.column);
      for (const row of batch) needs.add(spec.partitionBy.table, Number(row[index]));
      await pg.partitions.ensure(pg, needs);
    }
    const rows = batch;
    await pg.transaction(async (tx) => {
      await tx.query(insert, columnArrays(rows, columns.length));
      if (insertClaims) {
        const at = (name: string) => columns.findIndex(([column]) => column === name);
        await tx.query(insertClaims, columnArrays(rows.map((row) => [row[at("project_id")]!, row[at("event_id")]!, row[at("received")]!]), 3));
      }
    });
    copied += rows.length;
    batch = [];
    if (Date.now() - lastPrint > 1_000 || copied === total) {
      lastPrint = Date.now();
      print(`  ${spec.table}: ${copied}/${total} (${total === 0 ? 100 : Math.floor((copied / total) * 100)}%)`);
    }
  };
  const packedAt = spec.packed ? columns.findIndex(([name]) => name === spec.packed) : -1;
  for (const raw of select.iterate() as IterableIterator<(Scalar | Buffer)[]>) {
    // SQLite keeps booleans as 0/1.
    batch.push(raw.map((value, i) => (i === packedAt ? unpackPayload(value as string | Buffer) : columns[i]![1] === "boolean" ? value === 1 : (value as Scalar))));
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  if (total === 0) print(`  ${spec.table}: 0/0`);
}

export async function migrateToPostgres(options: { from: string; to: string; poolSize?: number }, print: Print = console.log): Promise<MigrationResult> {
  const file = sqliteFileOf(options.from);
  if (!existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  print(`Copying ${file} → ${redact(options.to)}`);
  // Opening applies pending SQLite migrations, so both sides have the current schema.
  const sqlite = openSqlite(file);
  const pg = await openPostgres({ url: options.to, poolSize: options.poolSize ?? 4 });
  try {
    const [existing] = await pg.query<{ n: number }>("SELECT (SELECT COUNT(*) FROM organizations) + (SELECT COUNT(*) FROM users) + (SELECT COUNT(*) FROM events) AS n");
    if ((existing?.n ?? 0) > 0) throw new Error("the PostgreSQL database is not empty: migrate into a fresh database");
    for (const spec of TABLES) await copyTable(sqlite, pg, spec, print);
    await copyBlobs(sqlite, pg, path.dirname(file), print);
    await copyAttachments(sqlite, pg, path.dirname(file), print);
    for (const table of IDENTITY_TABLES) {
      await pg.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM ${table}`);
    }

    print("Verifying row counts:");
    const counts: MigrationResult["counts"] = [];
    const countOf = (table: string) => `SELECT COUNT(*) AS n FROM ${table}`;
    const pairs: [string, string][] = [
      ...TABLES.map((t): [string, string] => [t.distinctCount ?? countOf(t.source ?? t.table), t.table]),
      [countOf("events"), "event_ids"], [countOf("transactions"), "transaction_ids"],
      [`SELECT COUNT(*) AS n FROM (${BLOB_NAMES})`, "artifact_blobs"],
      [countOf("attachments"), "attachments"],
    ];
    for (const [count, target] of pairs) {
      const from = (sqlite.prepare(count).get() as { n: number }).n;
      const [to] = await pg.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${target}`);
      counts.push({ table: target, sqlite: from, postgres: to?.n ?? 0 });
      print(`  ${target.padEnd(16)} sqlite ${String(from).padStart(9)}  postgres ${String(to?.n ?? 0).padStart(9)}  ${from === to?.n ? "ok" : "MISMATCH"}`);
    }
    const ok = counts.every((c) => c.sqlite === c.postgres);
    print(ok ? "Done: every row arrived. Point DATABASE_URL at this database and start Periscope." : "FAILED: row counts differ (see above).");
    return { ok, counts };
  } finally {
    sqlite.close();
    await pg.close();
  }
}

export async function migrateToPostgresCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: "string" }, to: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || !values.from || !values.to) {
    console.log(`Usage: periscope migrate-to-postgres --from <sqlite file or DATA_DIR> --to <postgres://user:pass@host:5432/db>

Copies every organisation, project, key, account, issue, event and all telemetry from a SQLite installation
into an empty PostgreSQL database, with progress output, and verifies the row count of every table.
Stop the SQLite server first. Exits 1 when any count differs.`);
    return values.help ? 0 : 2;
  }
  if (!/^postgres(ql)?:\/\//.test(values.to)) {
    console.error("--to must be a postgres:// or postgresql:// URL");
    return 2;
  }
  const result = await migrateToPostgres({ from: values.from, to: values.to });
  return result.ok ? 0 : 1;
}
