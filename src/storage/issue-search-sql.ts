/**
 * The issue list query, built once for both engines: an issue search tree (src/model/issue-search.ts)
 * and the list options → one parameterised SELECT. Values only ever reach SQL as parameters;
 * identifiers only from allow-lists here. What differs between engines is the `SqlDialect`: how a
 * parameter is written, case-insensitive LIKE, and case-sensitive wildcard matching.
 */
import { decodeCursor } from "./cursor";
import type { IssueQuery, ResolvedTerm, SearchNode, SearchValue } from "../model";

export type SqlValue = string | number;

export interface SqlDialect {
  /** Adds a parameter, returns its placeholder (`?` or `$n`). */
  param(params: SqlValue[], value: SqlValue): string;
  /** Case-insensitive LIKE operator. */
  ilike: "LIKE" | "ILIKE";
  /** Case-sensitive match of `*` wildcards: SQLite GLOB, PostgreSQL LIKE; returns the SQL condition. */
  wildcard(column: string, pattern: string, p: (value: SqlValue) => string): string;
}

export const sqliteDialect: SqlDialect = {
  param: (params, value) => {
    params.push(value);
    return "?";
  },
  ilike: "LIKE",
  // GLOB: `*` any run; `?` and `[` are literal only inside brackets.
  wildcard: (column, pattern, p) => `${column} GLOB ${p(pattern.replace(/[?[]/g, (c) => `[${c}]`))}`,
};

export const postgresDialect: SqlDialect = {
  param: (params, value) => `$${params.push(value)}`,
  ilike: "ILIKE",
  wildcard: (column, pattern, p) => `${column} LIKE ${p(likeEscape(pattern).replace(/\*/g, "%"))} ESCAPE '\\'`,
};

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Priority (sort and `issue.priority:`): high for fatal and error, medium for warning, low otherwise. */
const PRIORITY_RANK = "(CASE WHEN i.level IN ('fatal', 'error') THEN 2 WHEN i.level = 'warning' THEN 1 ELSE 0 END)";
const PRIORITY_VALUE = { high: 2, medium: 1, low: 0 } as const;
/** 2^42 ms is ~139 years: rank × 2^42 + last_seen orders by rank, then recency, in one integer. */
const PRIORITY_SORT = `(${PRIORITY_RANK} * 4398046511104 + i.last_seen)`;

export const ISSUE_SORT_EXPRESSIONS: Record<IssueQuery["sort"], string> = {
  date: "i.last_seen",
  new: "i.first_seen",
  freq: "i.times_seen",
  user: "i.user_count",
  priority: PRIORITY_SORT,
};

/** Up to this many projects, each is its own index walk (see issueListSql); beyond, one scan with IN. */
const PER_PROJECT_WALKS = 50;

/**
 * The list's SELECT: issue rows with `project_slug` and `sort_value` (for the next cursor). Over
 * several projects it is a UNION ALL of one ordered, limited SELECT per project: each walks its
 * project's (project_id, sort column) index and stops after a page of matches, where one SELECT with
 * `project_id IN (…)` would have to filter and sort every matching issue of every project first.
 */
export function issueListSql(query: IssueQuery, projectIds: number[], dialect: SqlDialect): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const p = (value: SqlValue) => dialect.param(params, value);
  const sort = ISSUE_SORT_EXPRESSIONS[query.sort];
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  // Conditions are compiled again for each SELECT: SQLite's `?` placeholders take a value per use.
  const conditions = (): string[] => {
    const where: string[] = [];
    for (const term of legacyTerms(query)) where.push(compileTerm(term, p, dialect));
    if (query.search) where.push(compileNode(query.search, p, dialect));
    if (cursor) where.push(`(${sort} < ${p(cursor.value)} OR (${sort} = ${p(cursor.value)} AND i.id < ${p(Number(cursor.id))}))`);
    return where;
  };
  const select = (projects: string) =>
    `SELECT i.*, p.slug AS project_slug, ${sort} AS sort_value FROM issues i JOIN projects p ON p.id = i.project_id` +
    ` WHERE ${[projects, ...conditions()].join(" AND ")} ORDER BY ${sort} DESC, i.id DESC LIMIT ${p(query.limit + 1)}`;
  if (projectIds.length === 1 || projectIds.length > PER_PROJECT_WALKS) {
    return { sql: select(`i.project_id IN (${projectIds.map((id) => p(id)).join(", ")})`), params };
  }
  const walks = projectIds.map((id, n) => `SELECT * FROM (${select(`i.project_id = ${p(id)}`)}) AS walk${n}`);
  return { sql: `SELECT * FROM (${walks.join(" UNION ALL ")}) AS walks ORDER BY sort_value DESC, id DESC LIMIT ${p(query.limit + 1)}`, params };
}

/** The single-purpose filters callers set directly (release page, project summary). */
function legacyTerms(query: IssueQuery): ResolvedTerm[] {
  const terms: ResolvedTerm[] = [];
  if (query.status) terms.push({ kind: "status", statuses: [query.status] });
  if (query.level) terms.push({ kind: "level", levels: [query.level] });
  if (query.firstRelease) terms.push({ kind: "first_release", values: [{ match: "exact", value: query.firstRelease }] });
  if (query.release) terms.push({ kind: "tag", key: "release", values: [{ match: "exact", value: query.release }] });
  if (query.environment) terms.push({ kind: "tag", key: "environment", values: [{ match: "exact", value: query.environment }] });
  return terms;
}

type P = (value: SqlValue) => string;

export function compileNode(node: SearchNode<ResolvedTerm>, p: P, dialect: SqlDialect): string {
  switch (node.kind) {
    case "and":
      return `(${node.nodes.map((child) => compileNode(child, p, dialect)).join(" AND ")})`;
    case "or":
      return `(${node.nodes.map((child) => compileNode(child, p, dialect)).join(" OR ")})`;
    case "not":
      return `NOT ${compileNode(node.node, p, dialect)}`;
    default:
      return compileTerm(node, p, dialect);
  }
}

const NOTHING = "(1 = 0)";
const list = (values: SqlValue[], p: P) => values.map(p).join(", ");
const inList = (column: string, values: SqlValue[], p: P) => (values.length === 0 ? NOTHING : `${column} IN (${list(values, p)})`);
const ids = (values: string[]) => values.filter((id) => /^\d{1,15}$/.test(id)).map(Number);

/** Exact values as one IN, wildcard values as their own matches; never NULL for a NOT NULL column. */
function matchValues(column: string, values: SearchValue[], p: P, dialect: SqlDialect): string {
  const exact = values.flatMap((value) => (value.match === "exact" ? [value.value] : []));
  const parts = exact.length > 0 ? [inList(column, exact, p)] : [];
  for (const value of values) if (value.match === "wildcard") parts.push(dialect.wildcard(column, value.pattern, p));
  return parts.length === 0 ? NOTHING : `(${parts.join(" OR ")})`;
}

function compileTerm(term: ResolvedTerm, p: P, dialect: SqlDialect): string {
  switch (term.kind) {
    case "text": {
      // A placeholder per use: SQLite's `?` takes one value each.
      const pattern = `%${likeEscape(term.text).replace(/\*/g, "%")}%`;
      return `(i.title ${dialect.ilike} ${p(pattern)} ESCAPE '\\' OR i.culprit ${dialect.ilike} ${p(pattern)} ESCAPE '\\' OR (upper(p.slug) || '-' || i.seq) = upper(${p(term.text)}))`;
    }
    case "status":
      return inList("i.status", term.statuses, p);
    case "substatus":
      return inList("i.substatus", term.substatuses, p);
    case "level":
      return inList("i.level", term.levels, p);
    case "priority":
      return inList(PRIORITY_RANK, term.priorities.map((priority) => PRIORITY_VALUE[priority]), p);
    case "compare": {
      // Allow-listed column and operator (the model's types); the value is a parameter.
      const column = ({ times_seen: "i.times_seen", user_count: "i.user_count", first_seen: "i.first_seen", last_seen: "i.last_seen", id: "i.id" } as const)[term.column];
      const op = ({ "=": "=", ">": ">", ">=": ">=", "<": "<", "<=": "<=" } as const)[term.op];
      return `${column} ${op} ${p(term.value)}`;
    }
    case "tag":
      return `i.id IN (SELECT t.issue_id FROM issue_tags t WHERE t.key = ${p(term.key)} AND ${matchValues("t.value", term.values, p, dialect)})`;
    case "has_tag":
      return `EXISTS (SELECT 1 FROM issue_tags t WHERE t.issue_id = i.id AND t.key = ${p(term.key)})`;
    case "first_release":
      return `(i.first_release IS NOT NULL AND ${matchValues("i.first_release", term.values, p, dialect)})`;
    case "has_first_release":
      return "i.first_release IS NOT NULL";
    case "assignee": {
      const users = ids(term.userIds);
      const teams = ids(term.teamIds);
      const who = [...(users.length > 0 ? [inList("a.user_id", users, p)] : []), ...(teams.length > 0 ? [inList("a.team_id", teams, p)] : [])];
      const parts = who.length > 0 ? [`i.id IN (SELECT a.issue_id FROM issue_assignments a WHERE ${who.join(" OR ")})`] : [];
      if (term.nobody) parts.push("i.id NOT IN (SELECT a.issue_id FROM issue_assignments a)");
      return parts.length === 0 ? NOTHING : `(${parts.join(" OR ")})`;
    }
    case "assigned":
      return "i.id IN (SELECT a.issue_id FROM issue_assignments a)";
    case "bookmarked": {
      const users = ids(term.userIds);
      return users.length === 0 ? NOTHING : `i.id IN (SELECT b.issue_id FROM issue_bookmarks b WHERE ${inList("b.user_id", users, p)})`;
    }
    case "for_review":
      // Entering the inbox: the first event, or a reopening (regression, escalation, an ignore running
      // out, someone unresolving it) — the moments that drop the review row, each leaving an activity.
      return `(i.status = ${p("unresolved")} AND i.id NOT IN (SELECT r.issue_id FROM issue_reviews r)
        AND (i.first_seen >= ${p(term.since)} OR EXISTS (SELECT 1 FROM issue_activity a WHERE a.issue_id = i.id
          AND a.type IN (${p("set_regression")}, ${p("set_escalating")}, ${p("set_unresolved")}) AND a.date_created >= ${p(term.since)})))`;
    case "project":
      return inList("i.project_id", ids(term.projectIds), p);
  }
}

