/**
 * The storage contract. App data (organisations, projects, keys, accounts) is implemented once for
 * both engines in app/ (ADR 0011); every engine folder (sqlite/, postgres/) implements the rest of
 * `Storage` with the same file names; the rest of the code imports only from here. Methods are
 * async even where SQLite is synchronous so that a networked engine fits the same shape.
 *
 * App data (organisations, projects, keys, issue state) and telemetry (events, outcomes) are linked
 * by id only, never joined across, so telemetry can move to another store later.
 * Times are Unix milliseconds throughout; the API layer formats them.
 */
import type {
  PerfQuery,
  PerfSeriesPoint,
  SegmentSampleRow,
  TransactionStats,
  VitalSeriesPoint,
  VitalStats,
  EventNeighbours,
  Issue,
  IssueQuery,
  IssueStatus,
  IssueStatusDetails,
  IssueActivity,
  IssueAssignee,
  IssueWithStats,
  NewSavedSearch,
  SavedSearch,
  IngestRecord,
  IngestRecordResult,
  Organization,
  OutcomeHour,
  OutcomeSeriesQuery,
  OutcomeTotal,
  Page,
  PrivacySettings,
  Project,
  ProjectKey,
  KeyRateLimit,
  Quota,
  QuotaSet,
  StoredEvent,
  TagDistribution,
  TagValueCount,
} from "../model";
import type { AccountStore } from "./accounts-types";
import type { AlertStore } from "./alert-types";
import type { ArtifactStore, ReleaseActivityRepo, ReleaseRepo } from "./release-types";
import type { AttachmentRepo, LogRepo, SessionRepo, SpanRepo, TransactionRepo } from "./telemetry-types";
// Cron monitors and user feedback.
import type { FeedbackRepo, MonitorRepo } from "./monitor-types";

// Storage code reads the domain types through here; every other layer imports src/model.
export * from "../model";
export * from "./telemetry-types";
export * from "./accounts-types";
export * from "./release-types";
// Cron monitors and user feedback.
export * from "./monitor-types";
export * from "./alert-types";

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
  /** Changes a key of this project (by public key); null when it has no such key. Every process's key cache forgets it. */
  update(projectId: string, publicKey: string, patch: { label?: string; isActive?: boolean; rateLimit?: KeyRateLimit | null }): Promise<ProjectKey | null>;
  /** Revokes (deletes) a key of this project; false when it has no such key. */
  remove(projectId: string, publicKey: string): Promise<boolean>;
}

/** Sentry's project options, one JSON value per name; writes reach every process's key cache. */
export interface ProjectOptionsRepo {
  get(projectId: string): Promise<Record<string, unknown>>;
  set(projectId: string, name: string, value: unknown): Promise<void>;
}

/** Events counted against per-key rate limits, per window. */
export interface KeyRateCounter {
  /** Adds `amount` to the key's count for the window starting at `windowStart` (Unix s); resolves with the new count. */
  add(keyId: string, windowStart: number, amount: number): Promise<number>;
}

// Quotas (issue 33 item 4).
/** Quotas per organisation (projectId null) and project; writes reach every process's key cache. */
export interface QuotaRepo {
  list(organizationId: string, projectId: string | null): Promise<Quota[]>;
  /** The project's own quotas and its organisation's, in one query (the ingest key cache). */
  forProject(organizationId: string, projectId: string): Promise<QuotaSet>;
  /** Replaces the scope's whole set (one category and window at most once, checked by the caller). */
  replace(organizationId: string, projectId: string | null, quotas: Quota[]): Promise<void>;
}

/** One counter's count in one window: `name` says whose (scope, category, window); `windowStart` is Unix s. */
export interface QuotaCount {
  name: string;
  windowStart: number;
}

/** Items counted against quotas, shared by every process on one database. */
export interface QuotaCounter {
  /**
   * Adds each amount to its counter unless that would take it past its limit, all in one round
   * trip; resolves with whether each was added.
   */
  tryAdd(entries: readonly (QuotaCount & { amount: number; limit: number })[]): Promise<boolean[]>;
  /** Takes amounts back (items that another quota of the same request refused). */
  release(entries: readonly (QuotaCount & { amount: number })[]): Promise<void>;
  /** The counts so far (0 for a counter nothing was added to in that window). */
  current(entries: readonly QuotaCount[]): Promise<number[]>;
}

/**
 * Data scrubbing settings (src/model/privacy.ts). A scope without a row has the defaults. Writes
 * announce themselves like key changes, so every process's ingest cache hears of them.
 */
export interface PrivacyRepo {
  getForOrganization(organizationId: string): Promise<PrivacySettings>;
  getForProject(projectId: string): Promise<PrivacySettings>;
  setForOrganization(organizationId: string, settings: PrivacySettings): Promise<void>;
  setForProject(projectId: string, settings: PrivacySettings): Promise<void>;
}

export interface IssueRepo {
  getById(id: string): Promise<Issue | null>;
  query(query: IssueQuery): Promise<Page<IssueWithStats>>;
  /** Sets status, its substatus and the status details (null clears them). */
  setStatus(id: string, status: IssueStatus, details?: IssueStatusDetails | null): Promise<Issue | null>;
  // Issue workflow: deletes issues with their events and counters; returns the ids that existed.
  deleteIssues(ids: string[]): Promise<string[]>;
  // Issue workflow: merges the sources into the target (events move, their hashes now lead to the target); returns the merged ids.
  merge(targetId: string, sourceIds: string[]): Promise<string[]>;
  /** Brings back the issue merged in under `hash` (its id and short id again); null when the hash was not merged in. */
  unmergeHash(issueId: string, hash: string): Promise<string | null>;
  /** The issue's own grouping hash and those merged into it, with each one's latest event. */
  hashes(issueId: string): Promise<IssueHash[]>;
  // Issue workflow: ignored issues whose time ran out come back (with activity); returns their ids.
  wakeExpired(now: number): Promise<string[]>;
  /** The highest hourly event count of the issue since `since` (Unix ms): "until escalating" reads it. */
  maxHourlyCount(issueId: string, since: number): Promise<number>;
  tagDistribution(issueId: string, limitPerKey: number): Promise<TagDistribution[]>;
  /**
   * One tag's values on an issue, most events first (then by value), `limit` from `offset` — Sentry's
   * tags/{key}/values/ (issue 35). `uniqueValues`: how many values the key has on the issue.
   */
  tagValues(issueId: string, key: string, page: { limit: number; offset: number }): Promise<{ values: TagValueCount[]; uniqueValues: number }>;
  /** Distinct releases and environments seen in a project, for filter menus. */
  facets(projectId: string): Promise<{ releases: string[]; environments: string[] }>;
}

// Issue search (issue 35): saved searches, written once over Kysely (src/storage/app/saved-searches.ts).
export interface SavedSearchRepo {
  /** The organisation's shared searches and the person's own, oldest first. */
  listVisible(organizationId: string, userId: string): Promise<SavedSearch[]>;
  get(organizationId: string, id: string): Promise<SavedSearch | null>;
  create(input: NewSavedSearch): Promise<SavedSearch>;
  update(organizationId: string, id: string, changes: Partial<Pick<SavedSearch, "name" | "query" | "sort" | "visibility">>): Promise<SavedSearch | null>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

export interface EventRepo {
  get(projectId: string, eventId: string): Promise<StoredEvent | null>;
  listForIssue(issueId: string, limit: number, cursor?: string): Promise<Page<StoredEvent>>;
  latestForIssue(issueId: string): Promise<StoredEvent | null>;
  oldestForIssue(issueId: string): Promise<StoredEvent | null>;
  neighbours(issueId: string, eventId: string): Promise<EventNeighbours>;
  // Performance (issue 36): the errors captured inside a trace.
  /** Events of these projects whose contexts.trace names `traceId` (lower-case hex), oldest first, at most `limit`. */
  ofTrace(projectIds: string[], traceId: string, limit: number): Promise<StoredEvent[]>;
  /** The issues of the events captured inside any of these traces, with how many such events each has, most first. */
  issuesOfTraces(projectIds: string[], traceIds: string[]): Promise<{ issueId: string; events: number }[]>;
}

// Performance (issue 36)
export interface PerformanceRepo {
  /** Per transaction (name) of each project: counts, failures, duration percentiles, last seen. Unordered. */
  transactions(query: PerfQuery): Promise<TransactionStats[]>;
  /** Per `interval` ms from `query.start` (slots with no sample left out), oldest first. */
  series(query: PerfQuery, interval: number): Promise<PerfSeriesPoint[]>;
  /**
   * `transactions` and `series` together: one read of the window where the engine aggregates itself.
   * `approximate`: the window's full hours came from the per-hour rollups (ADR 0022 "Rollups"), its
   * percentiles within 1 % of the exact ones.
   */
  overview(query: PerfQuery, interval: number): Promise<{ stats: TransactionStats[]; series: PerfSeriesPoint[]; approximate: boolean }>;
  /** `vitals` and `vitalSeries` together, likewise. */
  vitalsOverview(query: PerfQuery, interval: number): Promise<{ stats: VitalStats[]; series: VitalSeriesPoint[]; approximate: boolean }>;
  /** How many samples fall in each of `buckets` bins of `width` ms from 0; longer ones in the last. */
  histogram(query: PerfQuery, width: number, buckets: number): Promise<number[]>;
  /** The `limit` longest samples, longest first. */
  slowest(query: PerfQuery, limit: number): Promise<SegmentSampleRow[]>;
  /** Trace ids of the `limit` most recent samples, newest first. */
  recentTraces(query: PerfQuery, limit: number): Promise<string[]>;
  /** Per page and web vital: count, p75 and the counts per band. `name` filters the page. Unordered. */
  vitals(query: PerfQuery): Promise<VitalStats[]>;
  /** p75 of each web vital per `interval` ms from `query.start`, oldest first. */
  vitalSeries(query: PerfQuery, interval: number): Promise<VitalSeriesPoint[]>;
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

export interface IssueHash {
  hash: string;
  /** Merged in from another issue (can be unmerged); false for the issue's own hash. */
  merged: boolean;
  latestEventId: string | null;
}

// Issue workflow: assignment, bookmarks, review and activity (src/storage/app/issue-triage.ts).
export interface IssueTriageRepo {
  /** Sets or (null) clears the assignee; false when clearing and there was none. */
  assign(issueId: string, assignee: IssueAssignee | null, now: number): Promise<boolean>;
  assignments(issueIds: string[]): Promise<Map<string, IssueAssignee>>;
  setBookmark(issueId: string, userId: string, bookmarked: boolean, now: number): Promise<void>;
  /** Which of `issueIds` the user bookmarked. */
  bookmarked(userId: string, issueIds: string[]): Promise<Set<string>>;
  setReviewed(issueId: string, userId: string | null, reviewed: boolean, now: number): Promise<void>;
  reviewed(issueIds: string[]): Promise<Set<string>>;
  addActivity(entry: { issueId: string; type: string; userId: string | null; data: Record<string, unknown>; now: number }): Promise<IssueActivity>;
  /** Newest first. */
  listActivity(issueId: string, limit: number): Promise<IssueActivity[]>;
  countNotes(issueIds: string[]): Promise<Map<string, number>>;
  /** Removes everything kept about deleted issues. */
  forgetIssues(issueIds: string[]): Promise<void>;
}

export interface Storage {
  readonly engine: "sqlite" | "postgres";
  organizations: OrganizationRepo;
  projects: ProjectRepo;
  keys: ProjectKeyRepo;
  projectOptions: ProjectOptionsRepo;
  keyRates: KeyRateCounter;
  // Quotas (issue 33 item 4).
  quotas: QuotaRepo;
  quotaCounts: QuotaCounter;
  /** Data scrubbing settings per organisation and project. */
  privacy: PrivacyRepo;
  issues: IssueRepo;
  // Issue workflow (app data).
  issueTriage: IssueTriageRepo;
  events: EventRepo;
  ingest: IngestStore;
  outcomes: OutcomeRepo;
  sessions: SessionRepo;
  transactions: TransactionRepo;
  spans: SpanRepo;
  // Performance (issue 36): aggregates of the segment and web-vital samples (ADR 0022).
  performance: PerformanceRepo;
  // Logs (issue 38).
  logs: LogRepo;
  attachments: AttachmentRepo;
  retention: RetentionStore;
  accounts: AccountStore;
  /** Releases made by sentry-cli or the API, with commits and deploys. */
  releases: ReleaseRepo;
  /** Implicit releases: what telemetry was sent with, read at request time. */
  releaseActivity: ReleaseActivityRepo;
  /** Source-map artifacts; also the `ArtifactLookup` the resolver reads. */
  artifacts: ArtifactStore;
  // Issue search (issue 35).
  savedSearches: SavedSearchRepo;
  // Cron monitors and user feedback.
  /** Cron monitors and their check-ins. */
  monitors: MonitorRepo;
  /** User feedback (feedback and user_report items). */
  feedback: FeedbackRepo;
  // Alerts (issue 34): rules, the issue feed, the delivery outbox, snoozes and personal settings.
  alerts: AlertStore;
  /**
   * Calls `listener` whenever a project or project key may have changed, in this process or — on a
   * shared database — in any other (PostgreSQL: LISTEN/NOTIFY, and after the listening connection
   * was lost, since notifications may have been missed). Returns the unsubscribe function.
   */
  onKeysChanged(listener: () => void): () => void;
  /** A trivial query (`SELECT 1`) for the health route: resolves when the database answers, rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
