import { SessionDeltas } from "../session-deltas";
import type { IngestRecord, IngestRecordResult, SpanData, TransactionPayload } from "../types";
import { columnArrays, sortedBy, unnestInsert, type Column } from "./bulk";
import type { Queryable } from "./db";
import { MissingPartitions, PartitionNeeds, type Partitions } from "./partitions";
import { loadSessionStates } from "./sessions";
import { SPAN_COLUMNS, type SpanRow } from "./spans";
import { TRANSACTION_COLUMNS, type TransactionRow } from "./transactions";

type Scalar = string | number | boolean | null;

const COLUMN_TYPES: Record<string, Column[1]> = {
  project_id: "bigint", received: "bigint", is_segment: "boolean", start_ts: "double precision", end_ts: "double precision",
  duration: "double precision",
};
const typed = (names: readonly string[]): Column[] => names.map((name) => [name, COLUMN_TYPES[name] ?? "text"] as const);

export function transactionRowOf(projectId: number, payload: TransactionPayload): TransactionRow {
  const trace = payload.contexts.trace ?? {};
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const start = payload.start_timestamp * 1000;
  const end = payload.timestamp * 1000;
  return {
    project_id: projectId, event_id: payload.event_id, trace_id: String(trace.trace_id), span_id: String(trace.span_id),
    name: payload.transaction, op: text(trace.op), status: text(trace.status), start_ts: start, end_ts: end,
    duration: end - start, release: payload.release ?? null, environment: payload.environment,
    measurements: JSON.stringify(payload.measurements), received: Math.round(payload.received * 1000),
    payload: JSON.stringify(payload),
  };
}

export const spanRowOf = (projectId: number, span: SpanData): SpanRow => ({
  project_id: projectId, trace_id: span.traceId, span_id: span.spanId, parent_span_id: span.parentSpanId,
  segment_id: span.segmentId, event_id: span.eventId, is_segment: span.isSegment, op: span.op, name: span.name,
  status: span.status, start_ts: span.start, end_ts: span.end, duration: span.end - span.start,
  segment_name: span.segmentName, release: span.release, environment: span.environment, sdk_name: span.sdkName,
  attributes: JSON.stringify(span.attributes), measurements: JSON.stringify(span.measurements),
});

export const INSERT_TRANSACTIONS = unnestInsert("transactions", typed(TRANSACTION_COLUMNS));
export const INSERT_SPANS = unnestInsert("spans", typed(SPAN_COLUMNS), "ON CONFLICT DO NOTHING");

export const rowValues = <R extends object>(row: R, columns: readonly (keyof R)[]): Scalar[] => columns.map((c) => row[c] as Scalar);

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
    }
    if (rows.length > 0) await tx.query(INSERT_TRANSACTIONS, columnArrays(rows.map((r) => rowValues(r, TRANSACTION_COLUMNS)), TRANSACTION_COLUMNS.length));
  }
  records.forEach((record, index) => {
    if (record.kind !== "span") return;
    spans.push(spanRowOf(Number(record.projectId), record.span));
    results[index] = { kind: "span" };
  });
  if (spans.length > 0) {
    const ordered = sortedBy(spans, (s) => [s.project_id, s.trace_id, s.span_id, s.end_ts]);
    await tx.query(INSERT_SPANS, columnArrays(ordered.map((r) => rowValues(r, SPAN_COLUMNS)), SPAN_COLUMNS.length));
  }

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

  const orderedStates = sortedBy(states, (s) => [s.projectId, s.state.sid]);
  if (orderedStates.length > 0) {
    await tx.query(
      unnestInsert(
        "session_states",
        [
          ["project_id", "bigint"], ["sid", "text"], ["did", "text"], ["seq", "bigint"], ["init", "boolean"], ["started", "bigint"],
          ["timestamp", "bigint"], ["status", "text"], ["errors", "bigint"], ["duration", "double precision"], ["release", "text"],
          ["environment", "text"],
        ],
        `ON CONFLICT (project_id, sid) DO UPDATE SET did = excluded.did, seq = excluded.seq, init = excluded.init,
           started = excluded.started, timestamp = excluded.timestamp, status = excluded.status, errors = excluded.errors,
           duration = excluded.duration, release = excluded.release, environment = excluded.environment`,
      ),
      columnArrays(
        orderedStates.map(({ projectId, state: s }) => [
          projectId, s.sid, s.did, s.seq, s.init, s.started, s.timestamp, s.status, s.errors, s.duration, s.release, s.environment ?? "",
        ]),
        12,
      ),
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
