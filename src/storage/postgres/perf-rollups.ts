/**
 * Per-hour performance rollups on PostgreSQL (ADR 0022 "Rollups"), inside the ingest transaction:
 * the rows a batch adds to are locked (transaction-scoped advisory locks, in key order, so two
 * processes never lose each other's counts), read, merged with the batch's deltas and written back.
 */
import { mergedSegment, mergedVital, type RollupDeltas } from "../perf-rollups";
import { columnArrays, unnestInsert, type Column } from "./bulk";
import type { Queryable } from "./db";

const SEGMENT_KEY = ["project_id", "hour", "name", "environment", "release"] as const;
const VITAL_KEY = ["project_id", "hour", "vital", "page", "environment", "release"] as const;
const keyTypes = (key: readonly string[]) => key.map((name): Column => [name, name === "project_id" || name === "hour" ? "bigint" : "text"]);

const UPSERT_SEGMENTS = unnestInsert(
  "segment_rollups",
  [...keyTypes(SEGMENT_KEY), ["count", "bigint"], ["failures", "bigint"], ["total", "double precision"], ["last_end", "double precision"], ["last_op", "text"], ["sketch", "text"]],
  `ON CONFLICT (${SEGMENT_KEY.join(", ")}) DO UPDATE SET count = excluded.count, failures = excluded.failures, total = excluded.total,
     last_end = excluded.last_end, last_op = excluded.last_op, sketch = excluded.sketch`,
);
const UPSERT_VITALS = unnestInsert(
  "vital_rollups",
  [...keyTypes(VITAL_KEY), ["count", "bigint"], ["good", "bigint"], ["poor", "bigint"], ["sketch", "text"]],
  `ON CONFLICT (${VITAL_KEY.join(", ")}) DO UPDATE SET count = excluded.count, good = excluded.good, poor = excluded.poor, sketch = excluded.sketch`,
);

const storedOf = (table: string, key: readonly string[], columns: string) => {
  const arrays = keyTypes(key).map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  return `SELECT ${key.join(", ")}, ${columns} FROM ${table} WHERE (${key.join(", ")}) IN (SELECT * FROM unnest(${arrays}))`;
};
const STORED_SEGMENTS = storedOf("segment_rollups", SEGMENT_KEY, "count, failures, total, last_end, last_op, sketch");
const STORED_VITALS = storedOf("vital_rollups", VITAL_KEY, "count, good, poor, sketch");

async function lock(tx: Queryable, keys: string[]): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended('periscope.rollup.' || key, 0) AS k FROM unnest($1::text[]) AS key ORDER BY k) ordered`,
    [keys],
  );
}

export async function writeRollups(tx: Queryable, deltas: RollupDeltas): Promise<void> {
  const segments = [...deltas.segments.values()];
  const vitals = [...deltas.vitals.values()];
  if (segments.length === 0 && vitals.length === 0) return;
  await lock(tx, [
    ...segments.map((d) => JSON.stringify(["s", d.projectId, d.hour, d.name, d.environment, d.release])),
    ...vitals.map((d) => JSON.stringify(["v", d.projectId, d.hour, d.vital, d.page, d.environment, d.release])),
  ]);
  if (segments.length > 0) {
    const keys = segments.map((d) => [d.projectId, d.hour, d.name, d.environment, d.release]);
    type Stored = { project_id: number; hour: number; name: string; environment: string; release: string; count: number; failures: number; total: number; last_end: number; last_op: string; sketch: string };
    const stored = new Map((await tx.query<Stored>(STORED_SEGMENTS, columnArrays(keys, SEGMENT_KEY.length))).map((row) => [
      JSON.stringify([row.project_id, row.hour, row.name, row.environment, row.release]), row,
    ]));
    const rows = segments.map((d, i) => [...keys[i]!, ...mergedSegment(d, stored.get(JSON.stringify(keys[i])))]);
    await tx.query(UPSERT_SEGMENTS, columnArrays(rows, SEGMENT_KEY.length + 6));
  }
  if (vitals.length > 0) {
    const keys = vitals.map((d) => [d.projectId, d.hour, d.vital, d.page, d.environment, d.release]);
    type Stored = { project_id: number; hour: number; vital: string; page: string; environment: string; release: string; count: number; good: number; poor: number; sketch: string };
    const stored = new Map((await tx.query<Stored>(STORED_VITALS, columnArrays(keys, VITAL_KEY.length))).map((row) => [
      JSON.stringify([row.project_id, row.hour, row.vital, row.page, row.environment, row.release]), row,
    ]));
    const rows = vitals.map((d, i) => [...keys[i]!, ...mergedVital(d, stored.get(JSON.stringify(keys[i])))]);
    await tx.query(UPSERT_VITALS, columnArrays(rows, VITAL_KEY.length + 4));
  }
}
