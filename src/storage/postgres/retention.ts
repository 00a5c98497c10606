import type { RetentionStore } from "../types";
import type { PgDb } from "./db";
import { DAY_MS, upcomingDays } from "./partitions";

const BATCH = 5_000;
const LOCK_WAIT = "2s";

/**
 * Telemetry expires a whole day at a time: a day partition whose range ends at or before the cutoff
 * is dropped (a catalogue change, not a scan). The small unpartitioned tables — dedupe claims and
 * latest session states — are trimmed in batches so no statement holds their rows for long.
 * Each pass also creates the coming days' partitions, so the first commit after midnight finds its
 * partition ready instead of taking the parent table's lock to create it.
 */
export function postgresRetention(db: PgDb): RetentionStore {
  async function trim(table: "event_ids" | "transaction_ids" | "session_states", column: "received" | "timestamp", before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT ${BATCH}) RETURNING 1)
         SELECT COUNT(*) AS n FROM gone`,
        [before],
      );
      const n = rows[0]?.n ?? 0;
      total += n;
      if (n < BATCH) return total;
    }
  }

  return {
    async expire(before) {
      await db.partitions.reload(db);
      let droppedPartitions = 0;
      for (const { name, day } of db.partitions.list()) {
        if (day + DAY_MS > before) continue;
        try {
          // Dropping a partition locks its parent briefly; never queue behind a long query for more
          // than LOCK_WAIT (ingest would queue behind us) — the next pass tries again.
          await db.transaction(async (tx) => {
            await tx.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
            await tx.query(`DROP TABLE IF EXISTS ${name}`);
          });
        } catch (error) {
          if ((error as { code?: unknown }).code === "55P03") continue;
          throw error;
        }
        db.partitions.forget(name);
        droppedPartitions++;
      }
      await db.partitions.ensure(db, upcomingDays(Date.now()));
      // A claim may go only once its row is gone: partitions are dropped whole days at a time (and a
      // locked one is skipped), so trim claims below the oldest day still stored, never below `before`.
      const keptFrom = (table: "events" | "transactions") =>
        Math.min(before, ...db.partitions.list().filter((partition) => partition.table === table).map((partition) => partition.day));
      const deletedRows =
        (await trim("event_ids", "received", keptFrom("events"))) +
        (await trim("transaction_ids", "received", keptFrom("transactions"))) +
        (await trim("session_states", "timestamp", before));
      return { deletedRows, droppedPartitions };
    },
  };
}
