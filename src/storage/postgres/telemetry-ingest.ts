import { SessionDeltas } from "../session-deltas";
import {
  SESSION_STATE_COLUMNS, SPAN_COLUMNS, TRANSACTION_COLUMNS, sessionStateRowOf, spanRowOf, transactionRowOf, type SpanRow,
  type TransactionRow,
} from "../rows";
import type { IngestRecord, IngestRecordResult, SpanData, TransactionPayload } from "../types";
import { columnArrays, sortedBy, unnestInsert, type Column } from "./bulk";
import { LOG_COLUMNS, logRowValues } from "../log-rows";
import type { Queryable } from "./db";
import { MissingPartitions, PartitionNeeds, type Partitions } from "./partitions";
import { loadSessionStates } from "./sessions";
import { addPerfSamples, noSamples, SEGMENT_SAMPLE_COLUMNS, VITAL_SAMPLE_COLUMNS, type PerfSamples } from "../perf-samples";
import { RollupDeltas } from "../perf-rollups";
import { writeRollups } from "./perf-rollups";

type Scalar = string | number | boolean | null;

const SAMPLE_TYPES: Record<string, Column[1]> = {
  project_id: "bigint", end_ts: "double precision", duration: "double precision", failed: "boolean", value: "double precision",
};

/** PostgreSQL types of the columns written through `typed` (text when not listed). */
const COLUMN_TYPES: Record<string, Column[1]> = {
  project_id: "bigint", received: "bigint", seq: "bigint", started: "bigint", timestamp: "bigint", errors: "bigint",
  is_segment: "boolean", init: "boolean", start_ts: "double precision", end_ts: "double precision", duration: "double precision",
};
const typed = (names: readonly string[]): Column[] => names.map((name) => [name, COLUMN_TYPES[name] ?? "text"] as const);

export const INSERT_TRANSACTIONS = unnestInsert("transactions", typed(TRANSACTION_COLUMNS));
// Logs (issue 38).
const INSERT_LOGS = unnestInsert("logs", LOG_COLUMNS.map((name): Column => [
  name, name === "project_id" || name === "received" ? "bigint" : name === "timestamp" ? "double precision" : name === "severity_number" ? "integer" : "text",
]));
export const INSERT_SPANS = unnestInsert("spans", typed(SPAN_COLUMNS), "ON CONFLICT DO NOTHING");

export const rowValues = <R extends object>(row: R, columns: readonly (keyof R)[]): Scalar[] => columns.map((c) => row[c] as Scalar);

// The samples stored come back (a copy returns nothing): they, and only they, go into the rollups.
const INSERT_SEGMENT_SAMPLES = unnestInsert(
  "segment_samples",
  SEGMENT_SAMPLE_COLUMNS.map((name) => [name, SAMPLE_TYPES[name] ?? "text"] as const),
  `ON CONFLICT DO NOTHING RETURNING ${SEGMENT_SAMPLE_COLUMNS.join(", ")}`,
);
const INSERT_VITAL_SAMPLES = unnestInsert(
  "vital_samples",
  VITAL_SAMPLE_COLUMNS.map((name) => [name, SAMPLE_TYPES[name] ?? "text"] as const),
  `ON CONFLICT DO NOTHING RETURNING ${VITAL_SAMPLE_COLUMNS.join(", ")}`,
);

/** The batch's performance samples (ADR 0022), in key order so concurrent commits lock rows alike; a copy is ignored. */
async function writePerfSamples(tx: Queryable, samples: PerfSamples): Promise<void> {
  const deltas = new RollupDeltas();
  if (samples.segments.length > 0) {
    const ordered = sortedBy(samples.segments, (s) => [s[0], s[1], s[2], s[3]]);
    type Stored = {
      project_id: number; end_ts: number; trace_id: string; span_id: string; name: string; op: string; duration: number; failed: boolean;
      environment: string; release: string; event_id: string | null;
    };
    for (const r of await tx.query<Stored>(INSERT_SEGMENT_SAMPLES, columnArrays(ordered, SEGMENT_SAMPLE_COLUMNS.length))) {
      deltas.addSegment([r.project_id, r.end_ts, r.trace_id, r.span_id, r.name, r.op, r.duration, r.failed, r.environment, r.release, r.event_id]);
    }
  }
  if (samples.vitals.length > 0) {
    const ordered = sortedBy(samples.vitals, (v) => [v[0], v[1], v[2], v[3], v[4]]);
    type Stored = { project_id: number; vital: string; end_ts: number; trace_id: string; span_id: string; page: string; value: number; environment: string; release: string };
    for (const r of await tx.query<Stored>(INSERT_VITAL_SAMPLES, columnArrays(ordered, VITAL_SAMPLE_COLUMNS.length))) {
      deltas.addVital([r.project_id, r.vital, r.end_ts, r.trace_id, r.span_id, r.page, r.value, r.environment, r.release]);
    }
  }
  // Per-hour rollups (ADR 0022 "Rollups") of the samples stored.
  await writeRollups(tx, deltas);
}

/**
 * Transactions, spans and sessions of one batch, inside the ingest transaction (ingest.ts). A
 * transaction's event id is claimed in `transaction_ids` first (a repeat stores nothing again);
 * spans keep the first copy of (project, trace, span, end). Sessions touched by the batch are locked
 * (transaction-scoped advisory locks, in key order) before their stored state is read, so two
 * processes updating one session count it once; the summed counters are then upserted.
 */
export async function writeTelemetry(tx: Queryable, partitions: Partitions, records: IngestRecord[], results: IngestRecordResult[]): Promise<void> {
  const transactions: { index: number; projectId: number; payload: TransactionPayload; spans: SpanData[] }[] = [];
  const spans: SpanRow[] = [];
  const samples = noSamples();
  const sessionKeys = new Map<string, { projectId: number; sid: string }>();
  records.forEach((record, index) => {
    const projectId = Number(record.projectId);
    if (record.kind === "transaction") transactions.push({ index, projectId, payload: record.transaction, spans: record.spans });
    else if (record.kind === "session_update") sessionKeys.set(`${projectId}\u0000${record.update.sid}`, { projectId, sid: record.update.sid });
  });

  if (transactions.length > 0) {
    const claims = sortedBy(transactions, (t) => [t.projectId, t.payload.event_id]);
    const claimed = await tx.query<{ project_id: number; event_id: string }>(
      unnestInsert("transaction_ids", [["project_id", "bigint"], ["event_id", "text"], ["received", "bigint"]], "ON CONFLICT DO NOTHING RETURNING project_id, event_id"),
      columnArrays(claims.map((t) => [t.projectId, t.payload.event_id, Math.round(t.payload.received * 1000)]), 3),
    );
    const won = new Set(claimed.map((row) => `${row.project_id}\u0000${row.event_id}`));
    const rows: TransactionRow[] = [];
    for (const t of transactions) {
      const id = `${t.projectId}\u0000${t.payload.event_id}`;
      const stored = won.delete(id);
      results[t.index] = { kind: "transaction", duplicate: !stored };
      if (!stored) continue;
      rows.push(transactionRowOf(t.projectId, t.payload));
      for (const span of t.spans) spans.push(spanRowOf(t.projectId, span));
      addPerfSamples(samples, t.projectId, t.spans);
    }
    if (rows.length > 0) await tx.query(INSERT_TRANSACTIONS, columnArrays(rows.map((r) => rowValues(r, TRANSACTION_COLUMNS)), TRANSACTION_COLUMNS.length));
  }
  records.forEach((record, index) => {
    if (record.kind !== "span") return;
    spans.push(spanRowOf(Number(record.projectId), record.span));
    addPerfSamples(samples, Number(record.projectId), [record.span]);
    results[index] = { kind: "span" };
  });
  if (spans.length > 0) {
    const ordered = sortedBy(spans, (s) => [s.project_id, s.trace_id, s.span_id, s.end_ts]);
    await tx.query(INSERT_SPANS, columnArrays(ordered.map((r) => rowValues(r, SPAN_COLUMNS)), SPAN_COLUMNS.length));
  }
  await writePerfSamples(tx, samples);

  const logRows: (string | number | null)[][] = [];
  records.forEach((record, index) => {
    if (record.kind !== "logs") return;
    logRows.push(...logRowValues(record));
    results[index] = { kind: "logs" };
  });
  if (logRows.length > 0) await tx.query(INSERT_LOGS, columnArrays(logRows, LOG_COLUMNS.length));

  if (!records.some((r) => r.kind === "session_update" || r.kind === "session_aggregate")) return;
  const keys = [...sessionKeys.values()];
  if (keys.length > 0) {
    await tx.query(
      `SELECT pg_advisory_xact_lock(k) FROM (
         SELECT DISTINCT hashtextextended('periscope.session.' || project_id || '.' || sid, 0) AS k
         FROM unnest($1::bigint[], $2::text[]) AS s(project_id, sid) ORDER BY k) ordered`,
      [keys.map((k) => k.projectId), keys.map((k) => k.sid)],
    );
  }
  const stored = await loadSessionStates(tx, keys);
  const sessions = new SessionDeltas((projectId, sid) => stored.get(`${projectId}\u0000${sid}`) ?? null);
  records.forEach((record, index) => {
    if (record.kind === "session_update") {
      sessions.addUpdate(Number(record.projectId), record.update);
      results[index] = { kind: "session_update" };
    } else if (record.kind === "session_aggregate") {
      sessions.addAggregate(Number(record.projectId), record.aggregate);
      results[index] = { kind: "session_aggregate" };
    }
  });
  const { states, counts, users } = sessions.finish();
  const needs = new PartitionNeeds();
  for (const c of counts) needs.add("session_counts", c.hour);
  for (const u of users) needs.add("session_users", u.hour);
  const missing = partitions.missing(needs);
  if (missing) throw new MissingPartitions(missing);

  const orderedStates = sortedBy(states, (s) => [s.projectId, s.state.sid]).map(({ projectId, state }) => sessionStateRowOf(projectId, state));
  if (orderedStates.length > 0) {
    const updates = SESSION_STATE_COLUMNS.filter((c) => c !== "project_id" && c !== "sid").map((c) => `${c} = excluded.${c}`).join(", ");
    await tx.query(
      unnestInsert("session_states", typed(SESSION_STATE_COLUMNS), `ON CONFLICT (project_id, sid) DO UPDATE SET ${updates}`),
      columnArrays(orderedStates.map((row) => rowValues(row, SESSION_STATE_COLUMNS)), SESSION_STATE_COLUMNS.length),
    );
  }
  const orderedCounts = sortedBy(counts, (c) => [c.projectId, c.hour, c.release, c.environment, c.health]);
  if (orderedCounts.length > 0) {
    await tx.query(
      unnestInsert(
        "session_counts",
        [["project_id", "bigint"], ["hour", "bigint"], ["release", "text"], ["environment", "text"], ["health", "text"], ["quantity", "bigint"]],
        "ON CONFLICT (project_id, hour, release, environment, health) DO UPDATE SET quantity = session_counts.quantity + excluded.quantity",
      ),
      columnArrays(orderedCounts.map((c) => [c.projectId, c.hour, c.release, c.environment, c.health, c.quantity]), 6),
    );
  }
  const orderedUsers = sortedBy(users, (u) => [u.projectId, u.hour, u.release, u.environment, u.did]);
  if (orderedUsers.length > 0) {
    await tx.query(
      unnestInsert(
        "session_users",
        [["project_id", "bigint"], ["hour", "bigint"], ["release", "text"], ["environment", "text"], ["did", "text"], ["severity", "integer"]],
        "ON CONFLICT (project_id, hour, release, environment, did) DO UPDATE SET severity = GREATEST(session_users.severity, excluded.severity)",
      ),
      columnArrays(orderedUsers.map((u) => [u.projectId, u.hour, u.release, u.environment, u.did, u.severity]), 6),
    );
  }
}
