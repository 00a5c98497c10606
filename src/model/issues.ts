/**
 * Issues (groups of events) and stored error events, as the services, API and UI see them.
 * Times are Unix milliseconds throughout; the API layer formats them.
 */
import type { GroupingResult, Level, NormalizedEvent } from "../processing/types";
import type { ResolvedSearch } from "./issue-search";

export type IssueStatus = "unresolved" | "resolved" | "ignored";
export const ISSUE_STATUSES: readonly IssueStatus[] = ["unresolved", "resolved", "ignored"];
export type IssueSubstatus = "new" | "ongoing" | "regressed" | "archived" | "resolved";

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
