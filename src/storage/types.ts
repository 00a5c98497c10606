/**
 * The storage contract. Every engine folder (sqlite/, postgres/) implements `Storage` with
 * the same file names; the rest of the code imports only from here. Methods are async even where
 * SQLite is synchronous so that a networked engine fits the same shape.
 *
 * App data (organisations, projects, keys, issue state) and telemetry (events, outcomes) are linked
 * by id only, never joined across, so telemetry can move to another store later.
 * Times are Unix milliseconds throughout; the API layer formats them.
 */
import type { GroupingResult, IndexedEvent, Level, NormalizedEvent } from "../processing/types";
import type {
  OutcomeHour,
  OutcomeSeriesQuery,
  SessionRepo,
  SpanContainerRecord,
  SpanRepo,
  TelemetryRecord,
  TelemetryRecordResult,
  TransactionRepo,
} from "./telemetry-types";

import type { AccountStore } from "./accounts-types";

export * from "./telemetry-types";
export * from "./accounts-types";

export interface Organization {
  id: string;
  slug: string;
  name: string;
  dateCreated: number;
}

export interface Project {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  platform: string | null;
  dateCreated: number;
}

export interface ProjectKey {
  id: string;
  projectId: string;
  label: string;
  /** 32 lower-case hex chars: the DSN's user part. */
  publicKey: string;
  isActive: boolean;
  dateCreated: number;
}

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
}

export type IssueSort = "date" | "new" | "freq";

export interface IssueQuery {
  projectIds: string[];
  status?: IssueStatus;
  level?: Level;
  release?: string;
  environment?: string;
  /** Free text: matched case-insensitively against title, culprit and short id; or an exact tag `key:value`. */
  text?: string;
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

/** What the ingest pipeline hands to the writer: one record per accepted item. */
export type IngestRecord =
  | {
      kind: "event";
      projectId: string;
      /** What groups, tags and counts the event (normalize.ts indexedEventOf). */
      event: IndexedEvent;
      /** What the events row stores (src/processing/stored-event.ts): the SDK's JSON with its context, or a normalised event. */
      payload: string;
      grouping: GroupingResult;
      /** Stable per-user key (id, email, username or IP) for "users affected"; null when unknown. */
      userKey: string | null;
    }
  | {
      kind: "outcome";
      projectId: string;
      outcome: OutcomeKind;
      /** Sentry data category (error, transaction, session, ...). */
      category: string;
      reason: string | null;
      quantity: number;
      /** Unix ms. */
      timestamp: number;
    }
  | TelemetryRecord;

/** An ingest record with nothing left to read: what the SQL of every engine writes. */
export type ReadIngestRecord = Exclude<IngestRecord, SpanContainerRecord>;

export type OutcomeKind = "accepted" | "filtered" | "rate_limited" | "invalid" | "unsupported" | "client_discard";

export interface OutcomeTotal {
  outcome: OutcomeKind;
  category: string;
  reason: string | null;
  quantity: number;
}

/** Per-record result of a committed batch, in input order. */
export type IngestRecordResult =
  | { kind: "event"; issueId: string; duplicate: boolean }
  | { kind: "outcome" }
  | TelemetryRecordResult;

export interface OrganizationRepo {
  create(input: { slug: string; name: string }): Promise<Organization>;
  list(): Promise<Organization[]>;
  getBySlug(slug: string): Promise<Organization | null>;
  getById(id: string): Promise<Organization | null>;
}

export interface ProjectRepo {
  create(input: { organizationId: string; slug: string; name: string; platform: string | null }): Promise<Project>;
  listByOrganization(organizationId: string): Promise<Project[]>;
  getById(id: string): Promise<Project | null>;
  getBySlug(organizationId: string, slug: string): Promise<Project | null>;
}

export interface ProjectKeyRepo {
  create(input: { projectId: string; label: string }): Promise<ProjectKey>;
  listByProject(projectId: string): Promise<ProjectKey[]>;
  getByPublicKey(publicKey: string): Promise<ProjectKey | null>;
}

export interface IssueRepo {
  getById(id: string): Promise<Issue | null>;
  query(query: IssueQuery): Promise<Page<IssueWithStats>>;
  setStatus(id: string, status: IssueStatus): Promise<Issue | null>;
  tagDistribution(issueId: string, limitPerKey: number): Promise<TagDistribution[]>;
  /** Distinct releases and environments seen in a project, for filter menus. */
  facets(projectId: string): Promise<{ releases: string[]; environments: string[] }>;
}

export interface EventRepo {
  get(projectId: string, eventId: string): Promise<StoredEvent | null>;
  listForIssue(issueId: string, limit: number, cursor?: string): Promise<Page<StoredEvent>>;
  latestForIssue(issueId: string): Promise<StoredEvent | null>;
  oldestForIssue(issueId: string): Promise<StoredEvent | null>;
  neighbours(issueId: string, eventId: string): Promise<EventNeighbours>;
}

export interface IngestStore {
  /**
   * Commits every record in one transaction: events are deduplicated by (project, event id), grouped
   * into issues (created, updated, or reopened as regressed), and outcomes are added to their counters.
   * Resolves only after the commit is durable; rejects (and commits nothing) on failure.
   */
  commit(records: IngestRecord[]): Promise<IngestRecordResult[]>;
  /**
   * How many `commit` calls may run at once (default 1). Batches are independent transactions; an
   * engine that settles concurrent writers itself (PostgreSQL) lets the writer overlap them.
   */
  readonly concurrentCommits?: number;
  /**
   * Prepares what commits run on ahead of the first one (the SQLite commit thread, which otherwise
   * starts with the first commit, so that commit waited ≈ 0.1–0.4 s for it). The server calls it at
   * start; a process that never ingests (the CLI) does not, and starts no thread.
   */
  start?(): void;
}

/** The write path alone, with its own connection(s): what the ingest worker thread opens. */
export interface IngestStorage {
  ingest: IngestStore;
  close(): Promise<void>;
}

export interface OutcomeRepo {
  totals(projectId: string, sinceMs: number): Promise<OutcomeTotal[]>;
  /** Hourly counters of these projects in the window, for stats_v2. */
  hourly(query: OutcomeSeriesQuery): Promise<OutcomeHour[]>;
}

/** What one retention pass removed. */
export interface RetentionResult {
  /** Rows deleted (SQLite: all expired telemetry; PostgreSQL: the unpartitioned dedupe and session-state rows). */
  deletedRows: number;
  /** Day partitions dropped (PostgreSQL only). */
  droppedPartitions: number;
}

export interface RetentionStore {
  /**
   * Expires telemetry older than `before` (Unix ms): events, transactions, spans, session states and
   * counters, outcome counters. Issues and their counters stay. Never holds the write lock for long:
   * small batches (SQLite) or whole-day partition drops (PostgreSQL).
   */
  expire(before: number): Promise<RetentionResult>;
}

export interface Storage {
  readonly engine: "sqlite" | "postgres";
  organizations: OrganizationRepo;
  projects: ProjectRepo;
  keys: ProjectKeyRepo;
  issues: IssueRepo;
  events: EventRepo;
  ingest: IngestStore;
  outcomes: OutcomeRepo;
  sessions: SessionRepo;
  transactions: TransactionRepo;
  spans: SpanRepo;
  retention: RetentionStore;
  accounts: AccountStore;
  /**
   * Calls `listener` whenever a project or project key may have changed, in this process or — on a
   * shared database — in any other (PostgreSQL: LISTEN/NOTIFY, and after the listening connection
   * was lost, since notifications may have been missed). Returns the unsubscribe function.
   */
  onKeysChanged(listener: () => void): () => void;
  close(): Promise<void>;
}
