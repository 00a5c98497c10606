import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { RetentionStore } from "../types";
import type { Db } from "./db";

/** Allow-list: the telemetry tables retention trims, the time that expires their rows, their row key. */
const EXPIRING = [
  ["events", "received", "rowid"],
  ["transactions", "received", "rowid"],
  ["spans", "end_ts", "rowid"],
  // WITHOUT ROWID tables: their primary key names the rows.
  ["session_states", "timestamp", "project_id, sid"],
  ["session_counts", "hour", "project_id, hour, release, environment, health"],
  ["session_users", "hour", "project_id, hour, release, environment, did"],
  ["outcomes", "hour", "project_id, hour, outcome, category, reason"],
] as const;

/** Rows per delete transaction: each holds SQLite's single write lock for a few milliseconds only. */
const BATCH = 1_000;

/**
 * SQLite has no partitions, so expired telemetry is deleted — in batches of BATCH rows, one short
 * transaction each, yielding to the event loop in between so the ingest writer's commits interleave.
 * Issues and their counters stay.
 */
export function sqliteRetention(db: Db): RetentionStore {
  const deletes = EXPIRING.map(([table, column, key]) =>
    db.prepare<[number, number]>(`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${column} < ? LIMIT ?)`),
  );
  return {
    async expire(before) {
      let deletedRows = 0;
      for (const statement of deletes) {
        for (;;) {
          const { changes } = statement.run(before, BATCH);
          deletedRows += changes;
          if (changes < BATCH) break;
          await yieldToEventLoop();
        }
      }
      return { deletedRows, droppedPartitions: 0 };
    },
  };
}
