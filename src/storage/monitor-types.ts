/** Repositories for cron monitors, their check-ins and user feedback (app data, src/storage/app/). */
import type { CheckIn, CheckInStatus, Feedback, FeedbackInput, Monitor, MonitorConfig, MonitorHealth, MonitorStatus } from "../model";

export interface NewMonitor {
  organizationId: string;
  projectId: string;
  slug: string;
  name: string;
  config: MonitorConfig;
  status: MonitorStatus;
  nextCheckIn: number | null;
  nextCheckInLatest: number | null;
  dateCreated: number;
}

export interface NewCheckIn {
  monitorId: string;
  projectId: string;
  guid: string;
  status: CheckInStatus;
  duration: number | null;
  environment: string | null;
  release: string | null;
  traceId: string | null;
  dateAdded: number;
  expectedTime: number | null;
  /** In-progress check-ins only: when the job times it out. */
  timeoutAt: number | null;
}

export interface MonitorRepo {
  getBySlug(organizationId: string, slug: string): Promise<Monitor | null>;
  getById(id: string): Promise<Monitor | null>;
  /** The organisation's monitors in these projects, by slug. */
  list(organizationId: string, projectIds: string[]): Promise<Monitor[]>;
  /** Throws AppError conflict when the organisation has a monitor with this slug. */
  create(input: NewMonitor): Promise<Monitor>;
  update(id: string, patch: Partial<Pick<Monitor, "slug" | "name" | "status" | "config" | "projectId" | "nextCheckIn" | "nextCheckInLatest">>): Promise<Monitor | null>;
  /** Deletes the monitor and its check-ins. */
  remove(id: string): Promise<boolean>;
  /** Null when the monitor already has a check-in with this guid. */
  insertCheckIn(input: NewCheckIn): Promise<CheckIn | null>;
  getCheckIn(monitorId: string, guid: string): Promise<CheckIn | null>;
  latestInProgress(monitorId: string): Promise<CheckIn | null>;
  /** Finishes an in-progress check-in; false when it is no longer in progress (timed out meanwhile). */
  finishCheckIn(id: string, status: "ok" | "error", duration: number, now: number): Promise<boolean>;
  /** Newest first; `before` a check-in id for the next page. */
  listCheckIns(monitorId: string, limit: number, before?: string): Promise<CheckIn[]>;
  /** After a check-in arrives: what it says about the monitor; the next expected time when given. */
  noteCheckIn(id: string, at: { time: number; status: CheckInStatus; environment: string | null; next?: { nextCheckIn: number; nextCheckInLatest: number } }): Promise<void>;
  /** Active monitors whose latest allowed check-in time has passed, oldest first. */
  overdue(now: number, limit: number): Promise<Monitor[]>;
  /**
   * The detection job's claim on a missed check-in: moves the expected time on only if it is still
   * `seenLatest`, so of several processes exactly one succeeds (and a check-in arriving meanwhile wins).
   */
  claimMissed(id: string, seenLatest: number, next: { nextCheckIn: number; nextCheckInLatest: number }): Promise<boolean>;
  /** In-progress check-ins past their timeout. */
  overdueInProgress(now: number, limit: number): Promise<CheckIn[]>;
  /** Marks an in-progress check-in timed out; false when another process (or its finish) got there first. */
  claimTimeout(checkInId: string, now: number): Promise<boolean>;
  /** Counts a finished run; answers the consecutive counts after it. */
  countResult(id: string, failed: boolean): Promise<{ consecutiveFailures: number; consecutiveOks: number; health: MonitorHealth } | null>;
  /** Moves health from `from` to `to`; false when it was not `from` (another process moved it). */
  moveHealth(id: string, from: MonitorHealth, to: MonitorHealth): Promise<boolean>;
  setIncidentIssue(id: string, issueId: string | null): Promise<void>;
  /** Check-ins older than `before` are deleted (retention). */
  expireCheckIns(before: number): Promise<number>;
}

export interface FeedbackRepo {
  /** Null when the project has this feedback already (an SDK's retry). */
  insert(projectId: string, input: FeedbackInput): Promise<Feedback | null>;
  get(projectId: string, id: string): Promise<Feedback | null>;
  getByFeedbackId(projectId: string, feedbackId: string): Promise<Feedback | null>;
  /** Newest first; `before` a feedback id for the next page. */
  list(projectIds: string[], limit: number, before?: string): Promise<Feedback[]>;
  listForIssue(issueId: string, limit: number): Promise<Feedback[]>;
  /** Feedback naming an event whose issue is not known yet, newest first. */
  unlinked(projectId: string, limit: number): Promise<Feedback[]>;
  setIssue(id: string, issueId: string): Promise<void>;
}
