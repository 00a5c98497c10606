import { decodeCursor, encodeCursor } from "../cursor";
import { attributeValueNeedles, containsPattern, newestLogFirst, toLog, type LogRow } from "../log-rows";
import type { LogListQuery, LogRepo, StoredLog } from "../types";
import type { Param, PgDb } from "./db";
import type { LogTextIndex } from "./log-text-index";

/** Rows read in time order before a text search turns to the trigram index (see `pageOf`). */
const TEXT_PROBE_ROWS = 5_000;

/**
 * Lists run per project and level, so that an index (on every day partition, merged in order) gives
 * the order and the LIMIT ends the walk; the pages are merged here. Attributes are JSON text,
 * cast to jsonb only for the rows an attribute filter looks at.
 */
interface Columns {
  project: string;
  level: string;
  time: string;
}
const AS_INDEXED: Columns = { project: "project_id", level: "level", time: "timestamp" };
// The time stays as it is, so that only the window's partitions are read: without a condition on
// their first column (the project) the b-tree indexes look like whole-index reads to the planner.
const HIDDEN: Columns = { project: "(project_id + 0)", level: "(level || '')", time: "timestamp" };

export function postgresLogs(db: PgDb, textIndex: LogTextIndex = { trigram: false, reason: "not checked" }): LogRepo {
  async function pageOf(projectId: string, level: string | null, query: LogListQuery, need: number): Promise<StoredLog[]> {
    const params: Param[] = [Number(projectId)];
    const p = (value: Param) => `$${params.push(value)}`;
    // Conditions on the indexed columns, written with them as they are (for the time-order indexes)
    // or as expressions no b-tree index matches (so that the trigram index alone picks the rows).
    const where: ((c: Columns) => string)[] = [(c) => `${c.project} = $1`];
    if (level !== null) {
      const value = p(level);
      where.push((c) => `${c.level} = ${value}`);
    }
    if (query.start !== undefined) {
      const start = p(query.start);
      where.push((c) => `${c.time} >= ${start}`);
    }
    if (query.end !== undefined) {
      const end = p(query.end);
      where.push((c) => `${c.time} < ${end}`);
    }
    const before = query.cursor ? decodeCursor(query.cursor) : null;
    if (before) {
      const time = p(before.value);
      const id = p(String(before.id));
      where.push((c) => `(${c.time} < ${time} OR (${c.time} = ${time} AND id < ${id}))`);
    }
    const after = query.after ? decodeCursor(query.after) : null;
    if (after) {
      const time = p(after.value);
      const id = p(String(after.id));
      where.push((c) => `(${c.time} > ${time} OR (${c.time} = ${time} AND id > ${id}))`);
    }
    const rest: string[] = [];
    if (query.traceId !== undefined) rest.push(`trace_id = ${p(query.traceId)}`);
    for (const [key, value] of query.attributes ?? []) {
      // The text test first: it skips most rows without parsing their JSON (attributeValueNeedles).
      // CASE keeps PostgreSQL from casting a row to jsonb before the text test has passed it.
      const [quoted, bare] = attributeValueNeedles(value);
      rest.push(
        `CASE WHEN strpos(attributes, ${p(quoted)}) > 0 OR strpos(attributes, ${p(bare)}) > 0 ` +
          `THEN (attributes::jsonb -> ${p(key)} ->> 'value') = ${p(value)} ELSE false END`,
      );
    }
    const texts = query.text ?? [];
    const textWhere = texts.map((text) => `body ILIKE ${p(containsPattern(text))}`);
    const limit = p(need);
    const order = "ORDER BY timestamp DESC, id DESC";
    const conditions = (c: Columns) => [...where.map((condition) => condition(c)), ...rest];
    const sql = `SELECT * FROM logs WHERE ${[...conditions(AS_INDEXED), ...textWhere].join(" AND ")} ${order} LIMIT ${limit}`;
    // The page is the first `need` rows in index order; with fresh statistics the planner at times
    // estimated a text filter or a cursor as so selective that it read the whole window and sorted
    // it instead (p95 0.6 s against 7 ms at 1,000,000 lines, bench/log-list.ts). No sort, then.
    const rows = await db.transaction(async (tx) => {
      await tx.query("SET LOCAL enable_sort = off");
      // A trigram index needs 3 characters to pick rows by.
      if (!textIndex.trigram || texts.length === 0 || !texts.every((text) => text.length >= 3)) return tx.query<LogRow>(sql, params);
      // A text that fills the page from the newest rows is found fastest in time order; one that
      // does not (rare or absent) would read the whole window that way, so then the trigram index
      // picks the rows and they are sorted. The planner would rather take the time index there
      // (a new day's partition has no statistics yet): the project and level hide it (HIDDEN).
      const probe = `SELECT * FROM (SELECT * FROM logs WHERE ${conditions(AS_INDEXED).join(" AND ")} ${order} LIMIT ${TEXT_PROBE_ROWS}) newest ` +
        `WHERE ${textWhere.join(" AND ")} ${order} LIMIT ${limit}`;
      const first = await tx.query<LogRow>(probe, params);
      if (first.length >= need) return first;
      await tx.query("SET LOCAL enable_sort = on");
      return tx.query<LogRow>(`SELECT * FROM logs WHERE ${[...conditions(HIDDEN), ...textWhere].join(" AND ")} ${order} LIMIT ${limit}`, params);
    });
    return rows.map(toLog);
  }

  return {
    async list(query) {
      const need = query.limit + 1;
      const levels: (string | null)[] = query.levels && query.levels.length > 0 ? [...new Set(query.levels)] : [null];
      const found: StoredLog[] = [];
      for (const projectId of query.projectIds) for (const level of levels) found.push(...(await pageOf(projectId, level, query, need)));
      const newest = found.sort(newestLogFirst).slice(0, need);
      const page = newest.slice(0, query.limit);
      const last = page.at(-1);
      return { items: page, nextCursor: newest.length > query.limit && last ? encodeCursor({ value: last.timestamp, id: last.id }) : null };
    },
  };
}
