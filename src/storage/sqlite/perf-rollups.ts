/**
 * Per-hour performance rollups on SQLite (ADR 0022 "Rollups"), on the commit thread: a batch's
 * deltas are merged into the stored rows (read, merge, write) inside the ingest transaction.
 */
import { mergedSegment, mergedVital, RollupDeltas } from "../perf-rollups";
import type { Db } from "./db";

export function sqliteRollupWriter(db: Db): { deltas(): RollupDeltas; write(deltas: RollupDeltas): void } {
  const segmentRow = db.prepare<[number, number, string, string, string], { count: number; failures: number; total: number; last_end: number; last_op: string; sketch: string }>(
    `SELECT count, failures, total, last_end, last_op, sketch FROM segment_rollups
     WHERE project_id = ? AND hour = ? AND name = ? AND environment = ? AND release = ?`,
  );
  const saveSegment = db.prepare<[number, number, string, string, string, number, number, number, number, string, string]>(
    `INSERT OR REPLACE INTO segment_rollups (project_id, hour, name, environment, release, count, failures, total, last_end, last_op, sketch)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const vitalRow = db.prepare<[number, number, string, string, string, string], { count: number; good: number; poor: number; sketch: string }>(
    `SELECT count, good, poor, sketch FROM vital_rollups
     WHERE project_id = ? AND hour = ? AND vital = ? AND page = ? AND environment = ? AND release = ?`,
  );
  const saveVital = db.prepare<[number, number, string, string, string, string, number, number, number, string]>(
    `INSERT OR REPLACE INTO vital_rollups (project_id, hour, vital, page, environment, release, count, good, poor, sketch)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    deltas: () => new RollupDeltas(),
    write(deltas) {
      for (const d of deltas.segments.values()) {
        const row = segmentRow.get(d.projectId, d.hour, d.name, d.environment, d.release);
        saveSegment.run(d.projectId, d.hour, d.name, d.environment, d.release, ...mergedSegment(d, row));
      }
      for (const d of deltas.vitals.values()) {
        const row = vitalRow.get(d.projectId, d.hour, d.vital, d.page, d.environment, d.release);
        saveVital.run(d.projectId, d.hour, d.vital, d.page, d.environment, d.release, ...mergedVital(d, row));
      }
      deltas.segments.clear();
      deltas.vitals.clear();
    },
  };
}
