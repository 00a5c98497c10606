import { decodeCursor, encodeCursor } from "../cursor";
import { toSpan, type SpanRow } from "../rows";
import type { SpanData, SpanListQuery, SpanRepo, StoredSpan } from "../types";
import type { Db } from "./db";
import { SPAN_GROUP_MAX_SPREAD_MS } from "./span-groups";

interface GroupRow {
  project_id: number;
  max_end: number;
  /** JSON arrays (span-groups.ts); a statement that needs only one kind selects the other as NULL. */
  segments: string | null;
  spans: string | null;
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

function spansOf(row: GroupRow): StoredSpan[] {
  const projectId = String(row.project_id);
  const spans: StoredSpan[] = [];
  for (const json of [row.segments, row.spans]) {
    if (json !== null) for (const span of JSON.parse(json) as SpanData[]) spans.push({ ...span, projectId });
  }
  return spans;
}

/** The span list's filters as the columns of span_groups (span-groups.ts) hold them. */
function groupFilters(query: SpanListQuery): { op: string | null; segmentName: string | null } {
  return {
    op: query.op === undefined ? null : `\n${query.op}\n`,
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
    `SELECT project_id, max_end, segments, spans FROM span_groups WHERE project_id IN (SELECT value FROM json_each(?)) AND trace_id = ?
     ORDER BY max_end DESC, rowid`,
  );
  // A row whose spans end before @end has min_end <= @end and, its spans being at most
  // SPAN_GROUP_MAX_SPREAD_MS apart, max_end <= @end + that: the index bounds both. The filter
  // columns skip rows none of whose spans can match before their JSON is read; a list of segments
  // (the transactions list) or of the other spans reads only that column.
  type ByEndParams = { projectId: number; top: number; end: number; op: string | null; segmentName: string | null };
  const groupsByEnd = (columns: string, which: string) =>
    db.prepare<[ByEndParams], GroupRow>(
      `SELECT project_id, max_end, ${columns} FROM span_groups WHERE project_id = @projectId AND max_end <= @top AND min_end <= @end
         AND ${which} AND (@op IS NULL OR instr(ops, @op) > 0) AND (@segmentName IS NULL OR instr(segment_names, @segmentName) > 0)
       ORDER BY max_end DESC`,
    );
  const groupsByEndOf = {
    any: groupsByEnd("segments, spans", "1"),
    segments: groupsByEnd("segments, NULL AS spans", "segments IS NOT NULL"),
    others: groupsByEnd("NULL AS segments, spans", "spans IS NOT NULL"),
  };
  // Per project, so the index gives the order and the LIMIT ends the walk (with `project_id IN`
  // SQLite sorts every matching row first). @floor and @end bound the walk from both sides.
  type ListParams = {
    projectId: number; isSegment: number | null; op: string | null; segmentName: string | null;
    end: number; spanId: string; floor: number; limit: number;
  };
  const list = db.prepare<[ListParams], SpanRow>(
    `SELECT * FROM spans WHERE project_id = @projectId AND end_ts BETWEEN @floor AND @end AND (end_ts < @end OR span_id < @spanId)
       AND (@isSegment IS NULL OR is_segment = @isSegment) AND (@op IS NULL OR op = @op)
       AND (@segmentName IS NULL OR segment_name = @segmentName)
     ORDER BY end_ts DESC, span_id DESC LIMIT @limit`,
  );

  /** The group rows that may hold spans of `query` before `position`, newest `max_end` first, one project. */
  function groupRows(projectId: string, query: SpanListQuery, position: { end: number } | null): Iterable<GroupRow> {
    if (query.traceId !== undefined) return groupsOfTrace.iterate(JSON.stringify([Number(projectId)]), query.traceId);
    const statement = query.isSegment === undefined ? groupsByEndOf.any : query.isSegment ? groupsByEndOf.segments : groupsByEndOf.others;
    return statement.iterate({
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
      const grouped: StoredSpan[] = [];
      for (const projectId of query.projectIds) grouped.push(...newestOfGroups(groupRows(projectId, query, position), keep, need));
      const fromGroups = sortedOnce(grouped).slice(0, need);
      // Rows that end before the groups' `need`-th span cannot make the page: bounding the scan by it
      // keeps a filter that no row matches from walking every row of the projects.
      const floor = fromGroups.length === need ? fromGroups[need - 1]!.end : null;
      // One trace's rows come by its key: in end order, the planner would walk every span of the projects.
      const rows = query.traceId !== undefined
        ? ofTrace.all(projects, query.traceId).map(toSpan).filter(keep)
        : query.projectIds.flatMap((projectId) =>
            list.all({
              projectId: Number(projectId),
              isSegment: query.isSegment === undefined ? null : query.isSegment ? 1 : 0,
              op: query.op ?? null,
              segmentName: query.segmentName ?? null,
              end: position ? position.end : Number.MAX_VALUE,
              spanId: position ? position.spanId : "",
              floor: floor ?? -Number.MAX_VALUE,
              limit: need,
            }).map(toSpan));
      // Rows first: of a span stored in both, the row is kept (sortedOnce).
      const newest = sortedOnce([...rows, ...fromGroups]).slice(0, need);
      const page = newest.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page,
        nextCursor: newest.length > query.limit && last ? encodeCursor({ value: last.end, id: last.spanId }) : null,
      };
    },
  };
}
