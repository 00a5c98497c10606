import { decodeCursor, encodeCursor } from "../cursor";
import { toSpan, type SpanRow } from "../rows";
import type { SpanListQuery, SpanRepo } from "../types";
import { idsOf, type Param, type PgDb } from "./db";

/** Span lists run newest first by end time, ties broken by span id, so paging is stable. */
export function postgresSpans(db: PgDb): SpanRepo {
  return {
    async trace(projectIds, traceId) {
      const rows = await db.query<SpanRow>(
        "SELECT * FROM spans WHERE project_id = ANY($1::bigint[]) AND trace_id = $2 ORDER BY start_ts, span_id",
        [idsOf(projectIds), traceId],
      );
      return rows.map(toSpan);
    },
    async list(query: SpanListQuery) {
      const position = query.cursor ? decodeCursor(query.cursor) : null;
      const params: Param[] = [idsOf(query.projectIds)];
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
