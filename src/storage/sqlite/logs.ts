import { decodeCursor, encodeCursor } from "../cursor";
import { attributeValueNeedles, containsPattern, newestLogFirst, toLog, type LogRow } from "../log-rows";
import type { LogListQuery, LogRepo, StoredLog } from "../types";
import type { Db } from "./db";

type Param = string | number;

/** A JSON path to an attribute's value: `$."key".value`, the key quoted so dots stay in it. */
const attributePath = (key: string) => `$.${JSON.stringify(key)}.value`;

/** The attribute's value as text: JSON true/false as the words, numbers as SQLite prints them. */
const ATTRIBUTE_TEXT = `(CASE json_type(attributes, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(json_extract(attributes, ?) AS TEXT) END)`;

/**
 * Lists run per project and level, so that an index gives the order and the LIMIT ends the walk
 * (with `project_id IN (…)` SQLite would sort every matching row first); the pages are merged here.
 * Statements are built per combination of filters and kept (a handful exist).
 */
export function sqliteLogs(db: Db): LogRepo {
  type Statement = ReturnType<typeof db.prepare<Param[], LogRow>>;
  const statements = new Map<string, Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<Param[], LogRow>(sql);
      if (statements.size < 256) statements.set(sql, statement);
    }
    return statement;
  };

  function pageOf(projectId: string, level: string | null, query: LogListQuery, need: number): StoredLog[] {
    const where = ["project_id = ?"];
    const params: Param[] = [Number(projectId)];
    if (level !== null) {
      where.push("level = ?");
      params.push(level);
    }
    if (query.start !== undefined) {
      where.push("timestamp >= ?");
      params.push(query.start);
    }
    if (query.end !== undefined) {
      where.push("timestamp < ?");
      params.push(query.end);
    }
    const before = query.cursor ? decodeCursor(query.cursor) : null;
    if (before) {
      where.push("(timestamp < ? OR (timestamp = ? AND id < ?))");
      params.push(before.value, before.value, String(before.id));
    }
    const after = query.after ? decodeCursor(query.after) : null;
    if (after) {
      where.push("(timestamp > ? OR (timestamp = ? AND id > ?))");
      params.push(after.value, after.value, String(after.id));
    }
    if (query.traceId !== undefined) {
      where.push("trace_id = ?");
      params.push(query.traceId);
    }
    for (const text of query.text ?? []) {
      where.push("body LIKE ? ESCAPE '\\'");
      params.push(containsPattern(text));
    }
    for (const [key, value] of query.attributes ?? []) {
      // The text test first: it skips most rows without parsing their JSON (attributeValueNeedles).
      where.push(`(instr(attributes, ?) > 0 OR instr(attributes, ?) > 0) AND ${ATTRIBUTE_TEXT} = ?`);
      params.push(...attributeValueNeedles(value), attributePath(key), attributePath(key), value);
    }
    const index = level === null ? "logs_project_time" : "logs_project_level_time";
    const sql = `SELECT * FROM logs INDEXED BY ${index} WHERE ${where.join(" AND ")} ORDER BY timestamp DESC, id DESC LIMIT ?`;
    return prepared(sql).all(...params, need).map(toLog);
  }

  return {
    async list(query) {
      const need = query.limit + 1;
      const levels: (string | null)[] = query.levels && query.levels.length > 0 ? [...new Set(query.levels)] : [null];
      const found: StoredLog[] = [];
      for (const projectId of query.projectIds) for (const level of levels) found.push(...pageOf(projectId, level, query, need));
      const newest = found.sort(newestLogFirst).slice(0, need);
      const page = newest.slice(0, query.limit);
      const last = page.at(-1);
      return { items: page, nextCursor: newest.length > query.limit && last ? encodeCursor({ value: last.timestamp, id: last.id }) : null };
    },
  };
}
