/**
 * Meaning of an issue search: the syntax tree (issue-search-syntax.ts) → typed terms. Which keys
 * exist, which values they take, relative dates against `now`. Any key that is not one of ours nor a
 * Sentry event field we cannot serve is a tag, as in Sentry. Every refusal names the token.
 */
import type {
  AssigneeRef,
  ComparisonOp,
  IssuePriority,
  IssueSearchColumn,
  IssueStatus,
  IssueSubstatusFilter,
  ParsedSearch,
  ParsedTerm,
  SearchNode,
  SearchValue,
} from "../model";
import { EVENT_LIMITS } from "../processing/limits";
import { LEVELS } from "../processing/types";
import { parseSearchSyntax, searchError, type SyntaxFilter, type SyntaxNode, type SyntaxScalar } from "./issue-search-syntax";

type Node = SearchNode<ParsedTerm>;

const IS_VALUES = [
  "unresolved", "resolved", "ignored", "archived", "assigned", "unassigned", "for_review", "new", "ongoing", "regressed", "escalating",
] as const;
const IS_REFUSED: Record<string, string> = {
  linked: "issues here are never linked to external issue trackers",
  unlinked: "issues here are never linked to external issue trackers",
};

/** Sentry event fields that need the events themselves, which issue search does not read. */
const EVENT_FIELDS = /^(?:error\.|stack\.|exception\.|http\.|geo\.|sdk\.|device\.|app\.|contexts\.|trace\.|measurements\.|span\.)|^(?:event\.type|event\.timestamp|timestamp|location|platform|trace|issue\.category|issue\.type|detector|has_replay|replayId|message\.id|title\.raw)$/;

const DATE_KEYS: Record<string, "first_seen" | "last_seen"> = {
  firstSeen: "first_seen",
  first_seen: "first_seen",
  age: "first_seen",
  lastSeen: "last_seen",
  last_seen: "last_seen",
};
const NUMBER_KEYS: Record<string, IssueSearchColumn> = {
  times_seen: "times_seen",
  timesSeen: "times_seen",
  "issue.id": "id",
};
const PRIORITIES: readonly IssuePriority[] = ["high", "medium", "low"];
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DAY_MS = 86_400_000;

export const SEARCH_KEYS_HELP =
  "is, has, assigned, bookmarks, level, issue.priority, times_seen, firstSeen, lastSeen, age, release, firstRelease, environment, project, issue.id, user.email, user.id, user.username, user.ip, or a tag";

/** Parses a search (`null` for an empty one); throws AppError("bad_request") naming the bad token. */
export function parseIssueSearch(query: string, now: number): ParsedSearch {
  const syntax = parseSearchSyntax(query);
  return syntax ? meaning(syntax, now) : null;
}

function meaning(node: SyntaxNode, now: number): Node {
  switch (node.kind) {
    case "or":
      return { kind: "or", nodes: node.nodes.map((child) => meaning(child, now)) };
    case "and": {
      // Sentry reads consecutive free-text words as one phrase.
      const nodes: Node[] = [];
      let words: string[] = [];
      const flush = () => {
        if (words.length > 0) nodes.push({ kind: "text", text: words.join(" ") });
        words = [];
      };
      for (const child of node.nodes) {
        if (child.kind === "text") words.push(child.text);
        else {
          flush();
          nodes.push(meaning(child, now));
        }
      }
      flush();
      return nodes.length === 1 ? nodes[0]! : { kind: "and", nodes };
    }
    case "text":
      return { kind: "text", text: node.text };
    case "filter": {
      const term = filterMeaning(node, now);
      return node.negated ? { kind: "not", node: term } : term;
    }
  }
}

function anyOf(nodes: Node[]): Node {
  return nodes.length === 1 ? nodes[0]! : { kind: "or", nodes };
}

function filterMeaning(filter: SyntaxFilter, now: number): Node {
  const { key, token } = filter;
  const fail = (problem: string) => searchError(`${token}: ${problem}`);
  const values = filter.values.map((scalar) => scalar.value);
  const single = (): string => {
    if (filter.list) throw fail(`${key}: takes one value, not a list`);
    return values[0]!;
  };
  const noComparison = (what: string) => {
    if (filter.op !== "=") throw fail(`${what} takes no comparison (${filter.op})`);
  };

  if (key === "is") {
    noComparison('"is"');
    return anyOf(values.map((value) => isTerm(value, now, fail)));
  }
  if (key === "has") {
    noComparison('"has"');
    const target = single();
    if (target === "firstRelease" || target === "first_release") return { kind: "has_first_release" };
    return { kind: "has_tag", key: tagKey(target, fail) };
  }
  if (key === "assigned" || key === "assigned_or_suggested") {
    noComparison(`"${key}"`);
    return { kind: "assignee_ref", refs: values.map((value) => assigneeRef(value, fail)), token };
  }
  if (key === "bookmarks") {
    noComparison('"bookmarks"');
    return {
      kind: "bookmarks_ref",
      refs: values.map((value) => (value === "me" ? { type: "me" as const } : { type: "email" as const, email: emailOf(value, fail) })),
      token,
    };
  }
  if (key === "level") {
    noComparison('"level"');
    for (const value of values) {
      if (!(LEVELS as readonly string[]).includes(value)) throw fail(`unknown level "${value}" (supported: ${LEVELS.join(", ")})`);
    }
    return { kind: "level", levels: values };
  }
  if (key === "issue.priority") {
    noComparison('"issue.priority"');
    for (const value of values) {
      if (!(PRIORITIES as readonly string[]).includes(value)) throw fail(`unknown priority "${value}" (supported: ${PRIORITIES.join(", ")})`);
    }
    return { kind: "priority", priorities: values as IssuePriority[] };
  }
  if (Object.hasOwn(NUMBER_KEYS, key)) {
    const column = NUMBER_KEYS[key]!;
    return { kind: "compare", column, op: filter.op, value: numberOf(single(), fail) };
  }
  if (Object.hasOwn(DATE_KEYS, key)) return dateTerm(DATE_KEYS[key]!, filter.op, single(), now, fail, key === "age");
  if (key === "release" || key === "firstRelease" || key === "first_release" || key === "first-release") {
    noComparison(`"${key}"`);
    const first = key !== "release";
    const rest = filter.values.filter((scalar) => scalar.value !== "latest").map((scalar) => searchValueOf(scalar, fail));
    if (values.includes("latest")) return { kind: "release_ref", first, latest: true, values: rest, token };
    return first ? { kind: "first_release", values: rest } : { kind: "tag", key: "release", values: rest };
  }
  if (key === "project") {
    noComparison('"project"');
    return { kind: "project_ref", slugs: values, token };
  }
  if (key === "message") {
    noComparison('"message"');
    return { kind: "text", text: single() };
  }
  if (EVENT_FIELDS.test(key)) {
    throw fail(`"${key}" is not searchable here: issue search reads issues, not single events (keys: ${SEARCH_KEYS_HELP})`);
  }
  const tag = tagKey(key, fail);
  if (filter.op !== "=") throw fail(`"${tag}" is a tag and takes no comparison (${filter.op})`);
  const tagValues = filter.values.map((scalar) => searchValueOf(scalar, fail));
  // `key:*` is "has the tag", as in Sentry.
  if (tagValues.some((value) => value.match === "wildcard" && value.pattern === "*")) return { kind: "has_tag", key: tag };
  return { kind: "tag", key: tag, values: tagValues };
}

/** Sentry moves an issue out of the inbox 7 days after it entered (new issues turn "ongoing"). */
const INBOX_DAYS = 7;

function isTerm(value: string, now: number, fail: (problem: string) => Error): Node {
  if (Object.hasOwn(IS_REFUSED, value)) throw fail(`is:${value} is not supported: ${IS_REFUSED[value]}`);
  if (!(IS_VALUES as readonly string[]).includes(value)) throw fail(`unknown value "${value}" (supported: ${IS_VALUES.join(", ")})`);
  const is = value as (typeof IS_VALUES)[number];
  switch (is) {
    case "unresolved":
    case "resolved":
    case "ignored":
      return { kind: "status", statuses: [is as IssueStatus] };
    case "archived":
      return { kind: "status", statuses: ["ignored"] };
    case "assigned":
      return { kind: "assigned" };
    case "unassigned":
      return { kind: "not", node: { kind: "assigned" } };
    case "for_review":
      return { kind: "for_review", since: now - INBOX_DAYS * DAY_MS };
    case "new":
    case "ongoing":
    case "regressed":
    case "escalating":
      return { kind: "and", nodes: [{ kind: "status", statuses: ["unresolved"] }, { kind: "substatus", substatuses: [is as IssueSubstatusFilter] }] };
  }
}

function assigneeRef(value: string, fail: (problem: string) => Error): AssigneeRef {
  if (value === "me") return { type: "me" };
  if (value === "my_teams") return { type: "my_teams" };
  if (value === "none") return { type: "none" };
  if (value.startsWith("#")) {
    const slug = value.slice(1);
    if (!/^[\w-]{1,50}$/.test(slug)) throw fail(`"${value}" is not a team (use #team-slug)`);
    return { type: "team", slug };
  }
  return { type: "email", email: emailOf(value, fail) };
}

function emailOf(value: string, fail: (problem: string) => Error): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw fail(`"${value}" is not me, my_teams, none, #team or an email address`);
  return value.toLowerCase();
}

function tagKey(key: string, fail: (problem: string) => Error): string {
  const bracketed = /^tags\[(.+)\]$/.exec(key);
  const tag = bracketed ? bracketed[1]! : key;
  if (tag.length > EVENT_LIMITS.tagKeyChars) throw fail(`tag key longer than ${EVENT_LIMITS.tagKeyChars} characters`);
  if (!/^[\w.:@/-]+$/.test(tag)) throw fail(`"${tag}" is not a tag key`);
  return tag;
}

/** `*` is a wildcard; `\*` a literal star (a value is either a pattern or has literal stars, not both). */
export function searchValueOf(scalar: SyntaxScalar, fail: (problem: string) => Error): SearchValue {
  const escaped = scalar.value.includes("\\*");
  const wild = /(^|[^\\])\*/.test(scalar.value);
  if (escaped && wild) {
    const problem = `"${scalar.value}" mixes * wildcards with literal \\* stars`;
    throw fail(problem);
  }
  if (escaped) return { match: "exact", value: scalar.value.replace(/\\\*/g, "*") };
  return wild ? { match: "wildcard", pattern: scalar.value } : { match: "exact", value: scalar.value };
}

function numberOf(text: string, fail: (problem: string) => Error): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text);
  if (!match) throw fail(`"${text}" is not a number`);
  const factor = { "": 1, k: 1000, m: 1_000_000 }[match[2]!.toLowerCase() as "" | "k" | "m"];
  const value = Number(match[1]) * factor;
  if (!Number.isSafeInteger(value)) throw fail(`"${text}" is not a whole number`);
  return value;
}

function dateTerm(
  column: "first_seen" | "last_seen",
  op: ComparisonOp,
  text: string,
  now: number,
  fail: (problem: string) => Error,
  age: boolean,
): Node {
  const relative = /^([+-])(\d+)([smhdw])$/.exec(text);
  if (relative) {
    if (op !== "=") throw fail(`a relative time (${text}) takes no comparison; -24h means "within the last 24 hours", +24h "more than 24 hours ago"`);
    const at = now - Number(relative[2]) * UNIT_MS[relative[3]!]!;
    return { kind: "compare", column, op: relative[1] === "-" ? ">=" : "<=", value: at };
  }
  if (age) throw fail(`"${text}" is not a relative time (use -24h, +7d; units s, m, h, d, w)`);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== text) throw fail(`"${text}" is not a date`);
    if (op === "=") {
      return { kind: "and", nodes: [{ kind: "compare", column, op: ">=", value: start }, { kind: "compare", column, op: "<", value: start + DAY_MS }] };
    }
    return { kind: "compare", column, op, value: start };
  }
  const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?$/.test(text)
    ? Date.parse(/(?:Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`)
    : Number.NaN;
  if (Number.isNaN(instant)) {
    throw fail(`"${text}" is not a date (use 2026-11-01, 2026-11-01T12:00:00, or -24h / +7d)`);
  }
  return { kind: "compare", column, op, value: instant };
}
