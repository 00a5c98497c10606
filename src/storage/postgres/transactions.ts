import { toTransaction, type TransactionRow } from "../rows";
import type { TransactionRepo } from "../types";
import { isId, type PgDb } from "./db";

/** Transaction events by id; lists of transactions read their segment spans (SpanRepo.list). */
export function postgresTransactions(db: PgDb): TransactionRepo {
  return {
    async get(projectId, eventId) {
      if (!isId(projectId)) return null;
      const [row] = await db.query<TransactionRow>("SELECT * FROM transactions WHERE project_id = $1 AND event_id = $2", [Number(projectId), eventId]);
      return row ? toTransaction(row) : null;
    },
  };
}
