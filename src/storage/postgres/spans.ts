import { decodeCursor, encodeCursor } from "../cursor";
import type { SpanListQuery, SpanRepo, StoredSpan } from "../types";
import type { Param, PgDb } from "./db";

export interface SpanRow {
  project_id: number;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  segment_id: string | null;
  event_id: string | null;
  is_segment: boolean;
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

/** Column order of `spans`, shared by the ingest path and the migration command. */
export const SPAN_COLUMNS = [
  "project_id", "trace_id", "span_id", "parent_span_id", "segment_id", "event_id", "is_segment", "op", "name", "status",
  "start_ts", "end_ts", "duration", "segment_name", "release", "environment", "sdk_name", "attributes", "measurements",
] as const satisfies readonly (keyof SpanRow)[];

const toSpan = (row: SpanRow): StoredSpan => ({
  projectId: String(row.project_id),
  traceId: row.trace_id,
  spanId: row.span_id,
  parentSpanId: row.parent_span_id,
  segmentId: row.segment_id,
  eventId: row.event_id,
  isSegment: row.is_segment,
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

const ids = (projectIds: string[]) => projectIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number);

/** Span lists run newest first by end time, ties broken by span id, so paging is stable. */
export function postgresSpans(db: PgDb): SpanRepo {
  return {
    async trace(projectIds, traceId) {
      const rows = await db.query<SpanRow>(
        "SELECT * FROM spans WHERE project_id = ANY($1::bigint[]) AND trace_id = $2 ORDER BY start_ts, span_id",
        [ids(projectIds), traceId],
      );
      return rows.map(toSpan);
    },
    async list(query: SpanListQuery) {
      const position = query.cursor ? decodeCursor(query.cursor) : null;
      const params: Param[] = [ids(query.projectIds)];
      const p = (value: Param) => `$${params.push(value)}`;
      const where = ["project_id = ANY($1::bigint[])"];
      if (query.isSegment !== undefined) where.push(`is_segment = ${p(query.isSegment)}`);
      if (query.op !== undefined) where.push(`op = ${p(query.op)}`);
      if (query.traceId !== undefined) where.push(`trace_id = ${p(query.traceId)}`);
      if (query.segmentName !== undefined) where.push(`segment_name = ${p(query.segmentName)}`);
      if (position) {
        const end = p(Number(position.value));
        where.push(`(end_ts < ${end} OR (end_ts = ${end} AND span_id < ${p(String(position.id))}))`);
      }
      const rows = await db.query<SpanRow>(
        `SELECT * FROM spans WHERE ${where.join(" AND ")} ORDER BY end_ts DESC, span_id DESC LIMIT ${p(query.limit + 1)}`,
        params,
      );
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toSpan),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ value: last.end_ts, id: last.span_id }) : null,
      };
    },
  };
}
