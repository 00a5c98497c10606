import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { RetentionStore } from "../types";
import type { Db } from "./db";
import { attachmentFiles } from "./attachment-files";

/**
 * Allow-list: the telemetry tables retention trims, the time that expires their rows, their row key.
 * Spans and span groups are apart: they expire per project (below).
 */
const EXPIRING = [
  ["events", "received", "rowid"],
  ["transactions", "received", "rowid"],
  // WITHOUT ROWID tables: their primary key names the rows.
  ["session_states", "timestamp", "project_id, sid"],
  ["session_counts", "hour", "project_id, hour, release, environment, health"],
  ["session_users", "hour", "project_id, hour, release, environment, did"],
  ["outcomes", "hour", "project_id, hour, outcome, category, reason"],
] as const;

/** Allow-list: the tables that expire per project, and the time that expires their rows. */
const EXPIRING_PER_PROJECT = [
  ["spans", "end_ts", "rowid"],
  ["span_groups", "max_end", "rowid"],
  // Performance samples (ADR 0022); WITHOUT ROWID, their primary key names the rows.
  ["segment_samples", "end_ts", "project_id, end_ts, trace_id, span_id"],
  ["vital_samples", "end_ts", "project_id, vital, end_ts, trace_id, span_id"],
  // Their per-hour rollups (ADR 0022 "Rollups"), by the hour's start.
  ["segment_rollups", "hour", "project_id, hour, name, environment, release"],
  ["vital_rollups", "hour", "project_id, hour, vital, page, environment, release"],
  // Logs (issue 38): through their (project, timestamp) index.
  ["logs", "timestamp", "rowid"],
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
  // Spans have no index on end_ts alone (migration 0005: one B-tree less per span written), so they
  // expire project by project through their (project, end) index; span groups likewise, each with
  // its newest span (at most SPAN_GROUP_MAX_SPREAD_MS after its oldest). The projects are read from
  // the rows themselves, so rows of a project deleted since expire too.
  const perProject = EXPIRING_PER_PROJECT.map(([table, column, key]) => ({
    nextProject: db.prepare<[number], { project_id: number }>(`SELECT project_id FROM ${table} WHERE project_id > ? ORDER BY project_id LIMIT 1`),
    remove: db.prepare<[number, number, number]>(
      `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE project_id = ? AND ${column} < ? LIMIT ?)`,
    ),
  }));

  // Attachments (issue 38): the rows of a batch, then their files, then the rows.
  const expiredAttachments = db.prepare<[number, number], { project_id: number; event_id: string; id: string }>(
    "SELECT project_id, event_id, id FROM attachments WHERE received < ? LIMIT ?",
  );
  const removeAttachment = db.prepare<[number, string, string]>("DELETE FROM attachments WHERE project_id = ? AND event_id = ? AND id = ?");
  const files = attachmentFiles(db);

  /** Runs `remove` until it deletes less than a batch, yielding between batches; returns the rows deleted. */
  async function inBatches(remove: () => number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const changes = remove();
      deleted += changes;
      if (changes < BATCH) return deleted;
      await yieldToEventLoop();
    }
  }

  return {
    async expire(before) {
      let deletedRows = 0;
      for (const statement of deletes) deletedRows += await inBatches(() => statement.run(before, BATCH).changes);
      for (const { nextProject, remove } of perProject) {
        for (let project = nextProject.get(-1); project; project = nextProject.get(project.project_id)) {
          const projectId = project.project_id;
          deletedRows += await inBatches(() => remove.run(projectId, before, BATCH).changes);
        }
      }
      for (;;) {
        const rows = expiredAttachments.all(before, BATCH);
        // Files before rows: after a crash in between the rows are still expired, and the next pass
        // finishes them; the other order could leave files no row names, never deleted.
        for (const row of rows) await files.remove(row.id);
        db.transaction(() => {
          for (const row of rows) removeAttachment.run(row.project_id, row.event_id, row.id);
        })();
        deletedRows += rows.length;
        if (rows.length < BATCH) break;
        await yieldToEventLoop();
      }
      return { deletedRows, droppedPartitions: 0 };
    },
  };
}
