import type { StoredTransaction, TransactionPayload, TransactionRepo } from "../types";
import type { PgDb } from "./db";

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

/** Column order of `transactions`, shared by the ingest path and the migration command. */
export const TRANSACTION_COLUMNS = [
  "project_id", "event_id", "trace_id", "span_id", "name", "op", "status", "start_ts", "end_ts", "duration", "release",
  "environment", "measurements", "received", "payload",
] as const satisfies readonly (keyof TransactionRow)[];

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
export function postgresTransactions(db: PgDb): TransactionRepo {
  return {
    async get(projectId, eventId) {
      if (!/^\d{1,15}$/.test(projectId)) return null;
      const [row] = await db.query<TransactionRow>("SELECT * FROM transactions WHERE project_id = $1 AND event_id = $2", [Number(projectId), eventId]);
      return row ? toTransaction(row) : null;
    },
  };
}
