import { decodeCursor, encodeCursor } from "../cursor";
import { toSpan, type SpanRow } from "../rows";
import type { SpanData, SpanListQuery, SpanRepo, StoredSpan } from "../types";
import type { Db } from "./db";
import { SPAN_GROUP_MAX_SPREAD_MS } from "./span-groups";

interface GroupRow {
  project_id: number;
  max_end: number;
  spans: string;
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Newest first by end, then by span id (the list's order and cursor), then by trace and project. */
const newestFirst = (a: StoredSpan, b: StoredSpan) =>
  b.end - a.end || compareIds(b.spanId, a.spanId) || compareIds(a.traceId, b.traceId) || compareIds(a.projectId, b.projectId);

const sameSpan = (a: StoredSpan, b: StoredSpan) =>
  a.spanId === b.spanId && a.traceId === b.traceId && a.projectId === b.projectId;

/**
 * `spans` sorted newest first, each span once: of a span stored twice (in a transaction and in a
 * container, or in two containers) the copy that comes first in `spans` (the sort is stable).
 */
function sortedOnce(spans: StoredSpan[]): StoredSpan[] {
  spans.sort(newestFirst);
  return spans.filter((span, i) => i === 0 || !(span.end === spans[i - 1]!.end && sameSpan(span, spans[i - 1]!)));
}

const spansOf = (row: Pick<GroupRow, "project_id" | "spans">): StoredSpan[] => {
  const projectId = String(row.project_id);
  return (JSON.parse(row.spans) as SpanData[]).map((span) => ({ ...span, projectId }));
};

/** The span list's filters as the columns of span_groups (span-groups.ts) hold them. */
function groupFilters(query: SpanListQuery): { op: string | null; isSegment: number | null; segmentName: string | null } {
  return {
    op: query.op === undefined ? null : `\n${query.op}\n`,
    isSegment: query.isSegment === undefined ? null : query.isSegment ? 1 : 0,
    segmentName: query.segmentName === undefined ? null : `\n${query.segmentName}\n`,
  };
}

/**
 * The `need` newest spans that `keep` accepts from group rows read newest `max_end` first. It stops
 * at the first row that ends before the `need`-th span found: that row and every later one hold
 * only spans that end earlier still.
 */
function newestOfGroups(rows: Iterable<GroupRow>, keep: (span: StoredSpan) => boolean, need: number): StoredSpan[] {
  let found: StoredSpan[] = [];
  for (const row of rows) {
    if (found.length >= need && row.max_end < found[need - 1]!.end) break;
    for (const span of spansOf(row)) if (keep(span)) found.push(span);
    if (found.length >= need) found = sortedOnce(found).slice(0, need);
  }
  return found;
}

/**
 * Span lists run newest first by end time, ties broken by span id, so paging is stable. Spans live
 * in two tables (migration 0006): `spans` (transactions' spans, v1 spans), read as rows, and
 * `span_groups` (streamed containers), read per project and merged with them.
 */
export function sqliteSpans(db: Db): SpanRepo {
  const ofTrace = db.prepare<[string, string], SpanRow>(
    `SELECT * FROM spans WHERE project_id IN (SELECT value FROM json_each(?)) AND trace_id = ?
     ORDER BY start_ts, span_id`,
  );
  const groupsOfTrace = db.prepare<[string, string], GroupRow>(
    `SELECT project_id, max_end, spans FROM span_groups WHERE project_id IN (SELECT value FROM json_each(?)) AND trace_id = ?
     ORDER BY max_end DESC, rowid`,
  );
  // A row whose spans end before @end has min_end <= @end and, its spans being at most
  // SPAN_GROUP_MAX_SPREAD_MS apart, max_end <= @end + that: the index bounds both. The filter
  // columns skip rows none of whose spans can match before their JSON is read.
  type ByEndParams = { projectId: number; top: number; end: number; op: string | null; isSegment: number | null; segmentName: string | null };
  const groupsByEnd = db.prepare<[ByEndParams], GroupRow>(
    `SELECT project_id, max_end, spans FROM span_groups WHERE project_id = @projectId AND max_end <= @top AND min_end <= @end
       AND (@op IS NULL OR instr(ops, @op) > 0) AND (@segmentName IS NULL OR instr(segment_names, @segmentName) > 0)
       AND (@isSegment IS NULL OR (CASE WHEN @isSegment THEN segments > 0 ELSE span_count > segments END))
     ORDER BY max_end DESC`,
  );
  type ListParams = {
    projects: string; isSegment: number | null; op: string | null; segmentName: string | null;
    end: number | null; spanId: string | null; limit: number;
  };
  const list = db.prepare<[ListParams], SpanRow>(
    `SELECT * FROM spans WHERE project_id IN (SELECT value FROM json_each(@projects))
       AND (@isSegment IS NULL OR is_segment = @isSegment) AND (@op IS NULL OR op = @op)
       AND (@segmentName IS NULL OR segment_name = @segmentName)
       AND (@end IS NULL OR end_ts < @end OR (end_ts = @end AND span_id < @spanId))
     ORDER BY end_ts DESC, span_id DESC LIMIT @limit`,
  );

  /** The group rows that may hold spans of `query` before `position`, newest `max_end` first, one project. */
  function groupRows(projectId: string, query: SpanListQuery, position: { end: number } | null): Iterable<GroupRow> {
    if (query.traceId !== undefined) return groupsOfTrace.iterate(JSON.stringify([Number(projectId)]), query.traceId);
    return groupsByEnd.iterate({
      projectId: Number(projectId),
      top: position ? position.end + SPAN_GROUP_MAX_SPREAD_MS : Number.MAX_VALUE,
      end: position ? position.end : Number.MAX_VALUE,
      ...groupFilters(query),
    });
  }

  return {
    async trace(projectIds, traceId) {
      const projects = JSON.stringify(projectIds.map(Number));
      const spans = ofTrace.all(projects, traceId).map(toSpan);
      for (const row of groupsOfTrace.all(projects, traceId)) spans.push(...spansOf(row));
      // A span stored twice (a container repeating spans of an earlier one) is kept once, from `spans`
      // if it is there. Its end is part of what makes it the same span, as on PostgreSQL: a span sent
      // again in another envelope gets that envelope's clock drift correction, and if its times differ
      // both are kept.
      const once = new Map<string, StoredSpan>();
      for (const span of spans) {
        const key = `${span.projectId}:${span.spanId}:${span.end}`;
        if (!once.has(key)) once.set(key, span);
      }
      return [...once.values()].sort((a, b) => a.start - b.start || compareIds(a.spanId, b.spanId));
    },
    async list(query: SpanListQuery) {
      const cursor = query.cursor ? decodeCursor(query.cursor) : null;
      const position = cursor ? { end: Number(cursor.value), spanId: String(cursor.id) } : null;
      const need = query.limit + 1;
      const projects = JSON.stringify(query.projectIds.map(Number));
      const keep = (span: StoredSpan) =>
        (query.isSegment === undefined || span.isSegment === query.isSegment) && (query.op === undefined || span.op === query.op) &&
        (query.traceId === undefined || span.traceId === query.traceId) &&
        (query.segmentName === undefined || span.segmentName === query.segmentName) &&
        (!position || span.end < position.end || (span.end === position.end && span.spanId < position.spanId));
      // One trace's rows come by its key: in end order, the planner would walk every span of the projects.
      const spans = query.traceId !== undefined
        ? ofTrace.all(projects, query.traceId).map(toSpan).filter(keep)
        : list.all({
            projects,
            isSegment: query.isSegment === undefined ? null : query.isSegment ? 1 : 0,
            op: query.op ?? null,
            segmentName: query.segmentName ?? null,
            end: position ? position.end : null,
            spanId: position ? position.spanId : null,
            limit: need,
          }).map(toSpan);
      for (const projectId of query.projectIds) spans.push(...newestOfGroups(groupRows(projectId, query, position), keep, need));
      const newest = sortedOnce(spans).slice(0, need);
      const page = newest.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page,
        nextCursor: newest.length > query.limit && last ? encodeCursor({ value: last.end, id: last.spanId }) : null,
      };
    },
  };
}
