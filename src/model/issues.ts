/**
 * Issues (groups of events) and stored error events, as the services, API and UI see them.
 * Times are Unix milliseconds throughout; the API layer formats them.
 */
import type { GroupingResult, Level, NormalizedEvent } from "../processing/types";
import type { ResolvedSearch } from "./issue-search";

export type IssueStatus = "unresolved" | "resolved" | "ignored";
export const ISSUE_STATUSES: readonly IssueStatus[] = ["unresolved", "resolved", "ignored"];
/**
 * Sentry's substatuses. "archived" is ignored forever (Sentry's archived_forever); "escalating" is an
 * issue back from archived-until-escalating.
 */
export type IssueSubstatus =
  | "new"
  | "ongoing"
  | "regressed"
  | "escalating"
  | "archived"
  | "archived_until_condition_met"
  | "archived_until_escalating"
  | "resolved";

/**
 * Why an ignored issue comes back, or which release a resolution holds for (issue workflow). Kept
 * on the issue (issues.status_details, JSON) so the ingest path reads it with the row it updates.
 */
export type IssueStatusDetails = IgnoreDetails | ResolveDetails;

export interface IgnoreDetails {
  kind: "ignore";
  ignoredAt: number;
  actorId: string | null;
  /** Unix ms: comes back at this time (ignoreDuration / ignoreUntil). */
  until: number | null;
  /** ignoreCount, ignoreWindow (minutes, null = since ignoring): N more events (within the window). */
  count: number | null;
  window: number | null;
  /** times_seen at which a windowless count is reached (times_seen when ignored + count). */
  countTarget: number | null;
  /** ignoreUserCount: N more users; userTarget = user_count when ignored + N. */
  userCount: number | null;
  userTarget: number | null;
  /** Archived until escalating: comes back when an hour has more than `count` events (window 60). */
  escalating: boolean;
}

export interface ResolveDetails {
  kind: "resolve";
  actorId: string | null;
  /** in_release: events from this release or a newer one reopen; in_next_release: only newer ones. */
  type: "in_release" | "in_next_release";
  release: string;
}

export interface Issue {
  id: string;
  projectId: string;
  /** Sentry's "short id": PROJECT-SLUG-<n>, upper case. */
  shortId: string;
  title: string;
  culprit: string;
  level: Level;
  /** "error" when the event had an exception, else "default" (messages), as Sentry names them. */
  type: "error" | "default";
  metadata: GroupingResult["metadata"];
  groupingStrategy: GroupingResult["strategy"];
  groupingConfig: string;
  status: IssueStatus;
  substatus: IssueSubstatus;
  statusDetails: IssueStatusDetails | null;
  firstSeen: number;
  lastSeen: number;
  count: number;
  userCount: number;
  firstRelease: string | null;
  lastRelease: string | null;
}

export interface IssueWithStats extends Issue {
  /** Events per hour for the 24 hours ending at the query's `now`, oldest first (24 numbers). */
  stats24h: number[];
  /** Events per UTC day for the 14 days ending with `now`'s, oldest first; only when the query asks (`stats14d`). */
  stats14d?: number[];
}

/** Sentry's sorts: last seen, first seen, events, users, priority (level rank, then last seen). */
export type IssueSort = "date" | "new" | "freq" | "user" | "priority";
export const ISSUE_SORTS: readonly IssueSort[] = ["date", "new", "freq", "user", "priority"];

export interface IssueQuery {
  projectIds: string[];
  status?: IssueStatus;
  level?: Level;
  release?: string;
  /** Only issues first seen in this release (the release page's "new issues"). */
  firstRelease?: string;
  environment?: string;
  /** Also compute `stats14d` (Sentry's `statsPeriod=14d` sparkline). */
  stats14d?: boolean;
  /** A parsed, resolved issue search (src/search/), ANDed with the fields above. */
  search?: ResolvedSearch;
  sort: IssueSort;
  limit: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  now: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface TagValueCount {
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface TagDistribution {
  key: string;
  /** Events that carry this tag. */
  totalValues: number;
  topValues: TagValueCount[];
}

export interface StoredEvent {
  eventId: string;
  projectId: string;
  issueId: string;
  groupingHash: string;
  /** Unix ms of the (drift-corrected) event timestamp. */
  timestamp: number;
  received: number;
  payload: NormalizedEvent;
}

export interface EventNeighbours {
  previousEventId: string | null;
  nextEventId: string | null;
}

// Issue workflow: assignment, bookmarks, review and activity (app data, src/storage/app/issue-triage.ts).
export type IssueAssignee = { kind: "user"; userId: string } | { kind: "team"; teamId: string };

export interface IssueActivity {
  id: string;
  issueId: string;
  /** set_resolved, set_unresolved, set_ignored, set_regression, set_escalating, assigned, unassigned, note, … */
  type: string;
  userId: string | null;
  data: Record<string, unknown>;
  dateCreated: number;
}
