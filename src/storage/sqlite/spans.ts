import { decodeCursor, encodeCursor } from "../cursor";
import type { SpanData, SpanListQuery, SpanRepo, StoredSpan } from "../types";
import type { Db } from "./db";

export interface SpanRow {
  project_id: number;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  segment_id: string | null;
  event_id: string | null;
  is_segment: number;
  op: string | null;
  name: string;
  status: string | null;
  start_ts: number;
  end_ts: number;
  duration: number;
  segment_name: string | null;
  release: string | null;
  environment: string | null;
  sdk_name: string | null;
  attributes: string;
  measurements: string;
}

export const spanRowOf = (projectId: number, span: SpanData): SpanRow => ({
  project_id: projectId, trace_id: span.traceId, span_id: span.spanId, parent_span_id: span.parentSpanId,
  segment_id: span.segmentId, event_id: span.eventId, is_segment: span.isSegment ? 1 : 0, op: span.op, name: span.name,
  status: span.status, start_ts: span.start, end_ts: span.end, duration: span.end - span.start,
  segment_name: span.segmentName, release: span.release, environment: span.environment, sdk_name: span.sdkName,
  attributes: JSON.stringify(span.attributes), measurements: JSON.stringify(span.measurements),
});

const toSpan = (row: SpanRow): StoredSpan => ({
  projectId: String(row.project_id),
  traceId: row.trace_id,
  spanId: row.span_id,
  parentSpanId: row.parent_span_id,
  segmentId: row.segment_id,
  eventId: row.event_id,
  isSegment: row.is_segment === 1,
  op: row.op,
  name: row.name,
  status: row.status,
  start: row.start_ts,
  end: row.end_ts,
  segmentName: row.segment_name,
  release: row.release,
  environment: row.environment,
  sdkName: row.sdk_name,
  attributes: JSON.parse(row.attributes) as Record<string, unknown>,
  measurements: JSON.parse(row.measurements) as Record<string, number>,
});

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
