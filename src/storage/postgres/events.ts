import { decodeCursor, encodeCursor } from "../cursor";
import { toEvent, type EventRow } from "../rows";
import type { EventRepo } from "../types";
import { idsOf, isId, type PgDb } from "./db";


/**
 * An issue's events run newest first, ordered by (timestamp, event_id) so paging is stable. Event ids
 * compare byte-wise (their columns are COLLATE "C"), as in SQLite. The day partitions are read through the parent table.
 */
export function postgresEvents(db: PgDb): EventRepo {
  const page = async (issueId: string, limit: number, after: { timestamp: number; eventId: string } | null) => {
    if (!isId(issueId)) return [];
    return after
      ? db.query<EventRow>(
          `SELECT * FROM events WHERE issue_id = $1 AND (timestamp < $2 OR (timestamp = $2 AND event_id < $3))
           ORDER BY timestamp DESC, event_id DESC LIMIT $4`,
          [Number(issueId), after.timestamp, after.eventId, limit],
        )
      : db.query<EventRow>(`SELECT * FROM events WHERE issue_id = $1 ORDER BY timestamp DESC, event_id DESC LIMIT $2`, [
          Number(issueId),
          limit,
        ]);
  };

  return {
    async get(projectId, eventId) {
      if (!isId(projectId)) return null;
      const [row] = await db.query<EventRow>("SELECT * FROM events WHERE project_id = $1 AND event_id = $2", [Number(projectId), eventId]);
      return row ? toEvent(row) : null;
    },
    async listForIssue(issueId, limit, cursor) {
      const position = cursor ? decodeCursor(cursor) : null;
      const rows = await page(issueId, limit + 1, position ? { timestamp: Number(position.value), eventId: String(position.id) } : null);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(toEvent),
        nextCursor: rows.length > limit && last ? encodeCursor({ value: last.timestamp, id: last.event_id }) : null,
      };
    },
    async latestForIssue(issueId) {
      const [row] = await page(issueId, 1, null);
      return row ? toEvent(row) : null;
    },
    async oldestForIssue(issueId) {
      if (!isId(issueId)) return null;
      const [row] = await db.query<EventRow>(
        `SELECT * FROM events WHERE issue_id = $1 ORDER BY timestamp ASC, event_id ASC LIMIT 1`,
        [Number(issueId)],
      );
      return row ? toEvent(row) : null;
    },
    async neighbours(issueId, eventId) {
      if (!isId(issueId)) return { previousEventId: null, nextEventId: null };
      const [row] = await db.query<{ previous: string | null; next: string | null }>(
        `WITH at AS (SELECT timestamp FROM events WHERE issue_id = $1 AND event_id = $2 LIMIT 1)
         SELECT
           (SELECT e.event_id FROM events e, at WHERE e.issue_id = $1
              AND (e.timestamp < at.timestamp OR (e.timestamp = at.timestamp AND e.event_id < $2))
              ORDER BY e.timestamp DESC, e.event_id DESC LIMIT 1) AS previous,
           (SELECT e.event_id FROM events e, at WHERE e.issue_id = $1
              AND (e.timestamp > at.timestamp OR (e.timestamp = at.timestamp AND e.event_id > $2))
              ORDER BY e.timestamp ASC, e.event_id ASC LIMIT 1) AS next`,
        [Number(issueId), eventId],
      );
      return { previousEventId: row?.previous ?? null, nextEventId: row?.next ?? null };
    },
    async issuesOfTraces(projectIds, traceIds) {
      if (traceIds.length === 0) return [];
      const rows = await db.query<{ issue_id: number; events: number }>(
        `SELECT issue_id, COUNT(*)::int AS events FROM events WHERE trace_id = ANY($1::text[]) AND project_id = ANY($2::bigint[])
         GROUP BY issue_id ORDER BY events DESC, issue_id LIMIT 100`,
        [traceIds, idsOf(projectIds)],
      );
      return rows.map((row) => ({ issueId: String(row.issue_id), events: row.events }));
    },
    async ofTrace(projectIds, traceId, limit) {
      const rows = await db.query<EventRow>(
        `SELECT * FROM events WHERE trace_id = $1 AND project_id = ANY($2::bigint[]) ORDER BY timestamp, event_id LIMIT $3`,
        [traceId, idsOf(projectIds), limit],
      );
      return rows.map(toEvent);
    },
  };
}
