import { sql } from "kysely";
import type { KeyRateCounter } from "../types";
import type { AppDialect } from "./dialect";

/**
 * Per-key rate-limit counters. PostgreSQL: one row per key and window in a table every process
 * shares, incremented by one upsert (atomic, so N processes cannot accept N times the limit).
 * SQLite: one process owns the file, so the counts live in its memory and cost no write.
 */
export function sqlKeyRates(dialect: AppDialect): KeyRateCounter {
  return {
    async add(keyId, windowStart, amount) {
      const row = await dialect.db
        .insertInto("key_rate_counts")
        .values({ key_id: Number(keyId), window_start: windowStart, count: amount })
        .onConflict((conflict) => conflict.columns(["key_id", "window_start"]).doUpdateSet({ count: sql<number>`key_rate_counts.count + excluded.count` }))
        .returning("count")
        .executeTakeFirstOrThrow();
      const total = Number(row.count);
      // The first request of a window clears the key's older windows: the table stays one row per key.
      if (total === amount) await dialect.db.deleteFrom("key_rate_counts").where("key_id", "=", Number(keyId)).where("window_start", "<", windowStart).execute();
      return total;
    },
  };
}

export function memoryKeyRates(): KeyRateCounter {
  const counts = new Map<string, { windowStart: number; count: number }>();
  return {
    add(keyId, windowStart, amount) {
      const current = counts.get(keyId);
      const entry = current && current.windowStart === windowStart ? current : { windowStart, count: 0 };
      entry.count += amount;
      counts.set(keyId, entry);
      return Promise.resolve(entry.count);
    },
  };
}
