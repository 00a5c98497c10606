/**
 * A parsed issue search (`is:unresolved assigned:me (level:error OR level:fatal) TypeError`), as the
 * parser (src/search/) hands it to the services and the services hand it to storage. Boolean
 * structure is kept; every leaf is a typed term. "Ref" terms (`assigned:me`, `release:latest`) name
 * something the services look up; storage only ever sees resolved terms.
 */
import type { IssueStatus } from "./issues";

export type SearchNode<T> =
  | { kind: "and"; nodes: SearchNode<T>[] }
  | { kind: "or"; nodes: SearchNode<T>[] }
  | { kind: "not"; node: SearchNode<T> }
  | T;

/** A value to match: exact, or with `*` wildcards (`*` any run of characters). */
export type SearchValue = { match: "exact"; value: string } | { match: "wildcard"; pattern: string };

export type ComparisonOp = "=" | ">" | ">=" | "<" | "<=";

/** Issue columns numeric comparisons may use (an allow-list: the only identifiers reaching SQL). */
export type IssueSearchColumn = "times_seen" | "user_count" | "first_seen" | "last_seen" | "id";

export type IssueSubstatusFilter = "new" | "ongoing" | "regressed" | "escalating";
export type IssuePriority = "high" | "medium" | "low";

/** Terms storage can compile: every reference already resolved to ids and versions. */
export type ResolvedTerm =
  /** Case-insensitive substring of title or culprit, or the short id exactly. */
  | { kind: "text"; text: string }
  | { kind: "status"; statuses: IssueStatus[] }
  | { kind: "substatus"; substatuses: IssueSubstatusFilter[] }
  | { kind: "level"; levels: string[] }
  | { kind: "priority"; priorities: IssuePriority[] }
  | { kind: "compare"; column: IssueSearchColumn; op: ComparisonOp; value: number }
  /** The issue has (an event with) one of these values of the tag. */
  | { kind: "tag"; key: string; values: SearchValue[] }
  | { kind: "has_tag"; key: string }
  | { kind: "first_release"; values: SearchValue[] }
  | { kind: "has_first_release" }
  /** Assigned to one of these users or teams; `nobody` adds unassigned issues. */
  | { kind: "assignee"; userIds: string[]; teamIds: string[]; nobody: boolean }
  | { kind: "assigned" }
  | { kind: "bookmarked"; userIds: string[] }
  /**
   * Sentry's inbox: unresolved, not marked reviewed, and entered the inbox (first seen, or reopened
   * by a regression, escalation or an ignore running out) at or after `since` (Unix ms: now − 7 days).
   */
  | { kind: "for_review"; since: number }
  | { kind: "project"; projectIds: string[] };

/** Who `assigned:` names before the services look it up. */
export type AssigneeRef = { type: "me" } | { type: "my_teams" } | { type: "none" } | { type: "team"; slug: string } | { type: "email"; email: string };

/** Terms that need a lookup (user, team, project, latest release) before storage can use them. */
export type RefTerm =
  | { kind: "assignee_ref"; refs: AssigneeRef[]; token: string }
  | { kind: "bookmarks_ref"; refs: ({ type: "me" } | { type: "email"; email: string })[]; token: string }
  /** `release:latest` / `firstRelease:latest` among other values. */
  | { kind: "release_ref"; first: boolean; values: SearchValue[]; latest: boolean; token: string }
  | { kind: "project_ref"; slugs: string[]; token: string };

export type ParsedTerm = ResolvedTerm | RefTerm;
export type ParsedSearch = SearchNode<ParsedTerm> | null;
export type ResolvedSearch = SearchNode<ResolvedTerm> | null;
