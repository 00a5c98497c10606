import { toTransaction, type TransactionRow } from "../rows";
import type { TransactionRepo } from "../types";
import type { Db } from "./db";

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
