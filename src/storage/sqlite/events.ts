import { decodeCursor, encodeCursor } from "../cursor";
import { toEvent, type EventRow } from "../rows";
import type { EventRepo } from "../types";
import type { Db } from "./db";

type Order = "newest" | "oldest";

/**
 * An issue's event keys in `order`, from a position on when `fromPosition`: those merged into
 * issue_events and those committed since (issue-events.ts), each side limited before they are
 * put together. One statement, so both sides and the mark are read from the same snapshot.
 */
function issueEventKeys(order: Order, fromPosition: boolean): string {
  const [direction, beyond] = order === "newest" ? ["DESC", "<"] : ["ASC", ">"];
  const after = fromPosition
    ? `AND (timestamp ${beyond} @timestamp OR (timestamp = @timestamp AND event_id ${beyond} @eventId))`
    : "";
  const sorted = `ORDER BY timestamp ${direction}, event_id ${direction} LIMIT @limit`;
  return `SELECT * FROM (SELECT timestamp, event_id, project_id FROM issue_events WHERE issue_id = @issueId ${after} ${sorted})
    UNION ALL
    SELECT * FROM (SELECT timestamp, event_id, project_id FROM events
      WHERE committed > (SELECT through FROM issue_events_merged WHERE id = 1) AND issue_id = @issueId ${after} ${sorted})`;
}

function issueEvents(order: Order, fromPosition: boolean): string {
  const direction = order === "newest" ? "DESC" : "ASC";
  return `SELECT e.* FROM (${issueEventKeys(order, fromPosition)}) k
    JOIN events e ON e.project_id = k.project_id AND e.event_id = k.event_id
    ORDER BY k.timestamp ${direction}, k.event_id ${direction} LIMIT @limit`;
}

function neighbour(order: Order): string {
  const direction = order === "newest" ? "DESC" : "ASC";
  return `SELECT event_id FROM (${issueEventKeys(order, true)}) ORDER BY timestamp ${direction}, event_id ${direction} LIMIT 1`;
}

type Page = { issueId: number; limit: number };
type Position = { issueId: number; timestamp: number; eventId: string };

/** An issue's events run newest first, ordered by (timestamp, event_id) so paging is stable. */
export function sqliteEvents(db: Db): EventRepo {
  const byId = db.prepare<[number, string], EventRow>("SELECT * FROM events WHERE project_id = ? AND event_id = ?");
  const firstPage = db.prepare<[Page], EventRow>(issueEvents("newest", false));
  const nextPage = db.prepare<[Page & Position], EventRow>(issueEvents("newest", true));
  const oldest = db.prepare<[Page], EventRow>(issueEvents("oldest", false));
  const position = db.prepare<[{ issueId: number; eventId: string }], { timestamp: number }>(
    `SELECT timestamp FROM events
     WHERE project_id = (SELECT project_id FROM issues WHERE id = @issueId) AND event_id = @eventId AND issue_id = @issueId`,
  );
  const ofTrace = db.prepare<[string, string, number], EventRow>(
    `SELECT * FROM events WHERE trace_id = ? AND project_id IN (SELECT value FROM json_each(?))
     ORDER BY timestamp, event_id LIMIT ?`,
  );
  const issuesOfTraces = db.prepare<[string, string], { issue_id: number; events: number }>(
    `SELECT issue_id, COUNT(*) AS events FROM events
     WHERE trace_id IN (SELECT value FROM json_each(?)) AND project_id IN (SELECT value FROM json_each(?))
     GROUP BY issue_id ORDER BY events DESC, issue_id LIMIT 100`,
  );
  const older = db.prepare<[Position & { limit: number }], { event_id: string }>(neighbour("newest"));
  const newer = db.prepare<[Position & { limit: number }], { event_id: string }>(neighbour("oldest"));

  return {
    async get(projectId, eventId) {
      const row = byId.get(Number(projectId), eventId);
      return row ? toEvent(row) : null;
    },
    async listForIssue(issueId, limit, cursor) {
      const id = Number(issueId);
      const at = cursor ? decodeCursor(cursor) : null;
      const rows = at
        ? nextPage.all({ issueId: id, limit: limit + 1, timestamp: Number(at.value), eventId: String(at.id) })
        : firstPage.all({ issueId: id, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toEvent),
        nextCursor: rows.length > limit && last ? encodeCursor({ value: last.timestamp, id: last.event_id }) : null,
      };
    },
    async latestForIssue(issueId) {
      const row = firstPage.get({ issueId: Number(issueId), limit: 1 });
      return row ? toEvent(row) : null;
    },
    async oldestForIssue(issueId) {
      const row = oldest.get({ issueId: Number(issueId), limit: 1 });
      return row ? toEvent(row) : null;
    },
    async neighbours(issueId, eventId) {
      const id = Number(issueId);
      const at = position.get({ issueId: id, eventId });
      if (!at) return { previousEventId: null, nextEventId: null };
      const from = { issueId: id, timestamp: at.timestamp, eventId, limit: 1 };
      return {
        previousEventId: older.get(from)?.event_id ?? null,
        nextEventId: newer.get(from)?.event_id ?? null,
      };
    },
    async issuesOfTraces(projectIds, traceIds) {
      if (traceIds.length === 0) return [];
      return issuesOfTraces.all(JSON.stringify(traceIds), JSON.stringify(projectIds.map(Number)))
        .map((row) => ({ issueId: String(row.issue_id), events: row.events }));
    },
    async ofTrace(projectIds, traceId, limit) {
      return ofTrace.all(traceId, JSON.stringify(projectIds.map(Number)), limit).map(toEvent);
    },
  };
}
