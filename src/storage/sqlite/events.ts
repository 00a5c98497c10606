import { decodeCursor, encodeCursor } from "../cursor";
import { toEvent, type EventRow } from "../rows";
import type { EventRepo } from "../types";
import type { Db } from "./db";

/** An issue's events run newest first, ordered by (timestamp, event_id) so paging is stable. */
export function sqliteEvents(db: Db): EventRepo {
  const byId = db.prepare<[number, string], EventRow>("SELECT * FROM events WHERE project_id = ? AND event_id = ?");
  const firstPage = db.prepare<[number, number], EventRow>(
    "SELECT * FROM events WHERE issue_id = ? ORDER BY timestamp DESC, event_id DESC LIMIT ?",
  );
  const nextPage = db.prepare<[number, number, number, string, number], EventRow>(
    `SELECT * FROM events WHERE issue_id = ? AND (timestamp < ? OR (timestamp = ? AND event_id < ?))
     ORDER BY timestamp DESC, event_id DESC LIMIT ?`,
  );
  const oldest = db.prepare<[number], EventRow>(
    "SELECT * FROM events WHERE issue_id = ? ORDER BY timestamp ASC, event_id ASC LIMIT 1",
  );
  const position = db.prepare<[number, string], { timestamp: number }>(
    "SELECT timestamp FROM events WHERE issue_id = ? AND event_id = ?",
  );
  type Position = { issueId: number; timestamp: number; eventId: string };
  const older = db.prepare<[Position], { event_id: string }>(
    `SELECT event_id FROM events WHERE issue_id = @issueId AND (timestamp < @timestamp OR (timestamp = @timestamp AND event_id < @eventId))
     ORDER BY timestamp DESC, event_id DESC LIMIT 1`,
  );
  const newer = db.prepare<[Position], { event_id: string }>(
    `SELECT event_id FROM events WHERE issue_id = @issueId AND (timestamp > @timestamp OR (timestamp = @timestamp AND event_id > @eventId))
     ORDER BY timestamp ASC, event_id ASC LIMIT 1`,
  );

  return {
    async get(projectId, eventId) {
      const row = byId.get(Number(projectId), eventId);
      return row ? toEvent(row) : null;
    },
    async listForIssue(issueId, limit, cursor) {
      const id = Number(issueId);
      const position = cursor ? decodeCursor(cursor) : null;
      const rows = position
        ? nextPage.all(id, Number(position.value), Number(position.value), String(position.id), limit + 1)
        : firstPage.all(id, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toEvent),
        nextCursor: rows.length > limit && last ? encodeCursor({ value: last.timestamp, id: last.event_id }) : null,
      };
    },
    async latestForIssue(issueId) {
      const row = firstPage.get(Number(issueId), 1);
      return row ? toEvent(row) : null;
    },
    async oldestForIssue(issueId) {
      const row = oldest.get(Number(issueId));
      return row ? toEvent(row) : null;
    },
    async neighbours(issueId, eventId) {
      const id = Number(issueId);
      const at = position.get(id, eventId);
      if (!at) return { previousEventId: null, nextEventId: null };
      return {
        previousEventId: older.get({ issueId: id, timestamp: at.timestamp, eventId })?.event_id ?? null,
        nextEventId: newer.get({ issueId: id, timestamp: at.timestamp, eventId })?.event_id ?? null,
      };
    },
  };
}
