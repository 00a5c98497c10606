import { decodeCursor, encodeCursor } from "../cursor";
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

/** Transactions run newest first by end time (Sentry's `timestamp`), ties broken by event id. */
export function sqliteTransactions(db: Db): TransactionRepo {
  const byId = db.prepare<[number, string], TransactionRow>("SELECT * FROM transactions WHERE project_id = ? AND event_id = ?");
  type ListParams = { projects: string; name: string | null; op: string | null; end: number | null; eventId: string | null; limit: number };
  const list = db.prepare<[ListParams], TransactionRow>(
    `SELECT * FROM transactions WHERE project_id IN (SELECT value FROM json_each(@projects))
       AND (@name IS NULL OR name = @name) AND (@op IS NULL OR op = @op)
       AND (@end IS NULL OR end_ts < @end OR (end_ts = @end AND event_id < @eventId))
     ORDER BY end_ts DESC, event_id DESC LIMIT @limit`,
  );
  return {
    async get(projectId, eventId) {
      const row = byId.get(Number(projectId), eventId);
      return row ? toTransaction(row) : null;
    },
    async list(query) {
      const position = query.cursor ? decodeCursor(query.cursor) : null;
      const rows = list.all({
        projects: JSON.stringify(query.projectIds.map(Number)),
        name: query.name ?? null,
        op: query.op ?? null,
        end: position ? Number(position.value) : null,
        eventId: position ? String(position.id) : null,
        limit: query.limit + 1,
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toTransaction),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ value: last.end_ts, id: last.event_id }) : null,
      };
    },
  };
}
