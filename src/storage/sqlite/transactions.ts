import type { StoredTransaction, TransactionPayload, TransactionRepo } from "../types";
import type { Db } from "./db";

export interface TransactionRow {
  project_id: number;
  event_id: string;
  trace_id: string;
  span_id: string;
  name: string;
  op: string | null;
  status: string | null;
  start_ts: number;
  end_ts: number;
  duration: number;
  release: string | null;
  environment: string;
  measurements: string;
  received: number;
  payload: string;
}

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

const toTransaction = (row: TransactionRow): StoredTransaction => ({
  eventId: row.event_id,
  projectId: String(row.project_id),
  traceId: row.trace_id,
  spanId: row.span_id,
  name: row.name,
  op: row.op,
  status: row.status,
  start: row.start_ts,
  end: row.end_ts,
  received: row.received,
  release: row.release,
  environment: row.environment,
  payload: JSON.parse(row.payload) as TransactionPayload,
});

/** Transaction events by id; lists of transactions read their segment spans (SpanRepo.list). */
export function sqliteTransactions(db: Db): TransactionRepo {
  const byId = db.prepare<[number, string], TransactionRow>("SELECT * FROM transactions WHERE project_id = ? AND event_id = ?");
  return {
    async get(projectId, eventId) {
      const row = byId.get(Number(projectId), eventId);
      return row ? toTransaction(row) : null;
    },
  };
}
