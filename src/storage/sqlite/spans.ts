import { decodeCursor, encodeCursor } from "../cursor";
import { toSpan, type SpanRow } from "../rows";
import type { SpanListQuery, SpanRepo } from "../types";
import type { Db } from "./db";

/** Span lists run newest first by end time, ties broken by span id, so paging is stable. */
export function sqliteSpans(db: Db): SpanRepo {
  const ofTrace = db.prepare<[string, string], SpanRow>(
    `SELECT * FROM spans WHERE project_id IN (SELECT value FROM json_each(?)) AND trace_id = ?
     ORDER BY start_ts, span_id`,
  );
  type ListParams = {
    projects: string; isSegment: number | null; op: string | null; traceId: string | null; segmentName: string | null;
    end: number | null; spanId: string | null; limit: number;
  };
  const list = db.prepare<[ListParams], SpanRow>(
    `SELECT * FROM spans WHERE project_id IN (SELECT value FROM json_each(@projects))
       AND (@isSegment IS NULL OR is_segment = @isSegment) AND (@op IS NULL OR op = @op)
       AND (@traceId IS NULL OR trace_id = @traceId) AND (@segmentName IS NULL OR segment_name = @segmentName)
       AND (@end IS NULL OR end_ts < @end OR (end_ts = @end AND span_id < @spanId))
     ORDER BY end_ts DESC, span_id DESC LIMIT @limit`,
  );
  return {
    async trace(projectIds, traceId) {
      return ofTrace.all(JSON.stringify(projectIds.map(Number)), traceId).map(toSpan);
    },
    async list(query: SpanListQuery) {
      const position = query.cursor ? decodeCursor(query.cursor) : null;
      const rows = list.all({
        projects: JSON.stringify(query.projectIds.map(Number)),
        isSegment: query.isSegment === undefined ? null : query.isSegment ? 1 : 0,
        op: query.op ?? null,
        traceId: query.traceId ?? null,
        segmentName: query.segmentName ?? null,
        end: position ? Number(position.value) : null,
        spanId: position ? String(position.id) : null,
        limit: query.limit + 1,
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toSpan),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ value: last.end_ts, id: last.span_id }) : null,
      };
    },
  };
}
