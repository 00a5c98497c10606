/**
 * The log explorer's search, for the page and for `/api/0/organizations/{org}/events/?dataset=logs`:
 * Sentry's search syntax as its logs view takes it. `severity:error` (also `level:`, several values
 * comma-separated: `severity:[warn,error]`), `trace:<id>`, `message:"…"`, any other `key:value` an
 * attribute filter, and the remaining words a case-insensitive full-text search of the body.
 */
import { AppError } from "../../errors";
import { LOG_LEVELS, type LogLevel, type LogListQuery, type Page, type Project, type StoredLog } from "../../model";
import type { Storage } from "../../storage/types";

export type LogSearch = Pick<LogListQuery, "levels" | "text" | "attributes" | "traceId">;

/** Words, `"quoted words"`, and `key:value` / `key:"quoted value"` / `key:[a,b]`. */
const TOKEN = /(?:[^\s"]+|"[^"]*")+/g;
const FILTER = /^([A-Za-z_][\w.\-@]*):(.+)$/;
const LEVEL_KEYS = new Set(["severity", "level", "severity_text", "sentry.severity_text", "log.level"]);
const TRACE_KEYS = new Set(["trace", "trace_id", "trace.id"]);
const MAX_FILTERS = 20;

const unquote = (value: string) => (value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);

function levelsOf(raw: string): LogLevel[] {
  const list = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1).split(",") : [raw];
  return list.map((value) => {
    const level = unquote(value.trim()).toLowerCase();
    const known = level === "warning" ? "warn" : level;
    if (!(LOG_LEVELS as readonly string[]).includes(known)) {
      throw new AppError("bad_request", `invalid query: unknown severity ${level} (expected one of ${LOG_LEVELS.join(", ")})`);
    }
    return known as LogLevel;
  });
}

export function parseLogSearch(query: string): LogSearch {
  const levels: LogLevel[] = [];
  const words: string[] = [];
  const attributes: [string, string][] = [];
  let traceId: string | undefined;
  for (const token of query.match(TOKEN) ?? []) {
    const match = FILTER.exec(token);
    if (!match) {
      if (unquote(token) !== "") words.push(unquote(token));
      continue;
    }
    const key = match[1]!;
    const value = unquote(match[2]!);
    if (LEVEL_KEYS.has(key.toLowerCase())) levels.push(...levelsOf(match[2]!));
    else if (TRACE_KEYS.has(key.toLowerCase())) {
      const id = value.toLowerCase().replaceAll("-", "");
      if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError("bad_request", `invalid query: trace must be 32 hex digits, not ${value.slice(0, 64)}`);
      traceId = id;
    } else if (key === "message") words.push(value);
    else attributes.push([key, value]);
  }
  if (attributes.length > MAX_FILTERS) throw new AppError("bad_request", `invalid query: at most ${MAX_FILTERS} attribute filters`);
  const search: LogSearch = {};
  if (levels.length > 0) search.levels = [...new Set(levels)];
  if (words.length > 0) search.text = words;
  if (attributes.length > 0) search.attributes = attributes;
  if (traceId !== undefined) search.traceId = traceId;
  return search;
}

/** Lines of these projects, newest first. */
export async function listLogs(storage: Storage, projects: Project[], query: Omit<LogListQuery, "projectIds">): Promise<Page<StoredLog>> {
  if (projects.length === 0) return { items: [], nextCursor: null };
  return storage.logs.list({ ...query, projectIds: projects.map((project) => project.id) });
}
