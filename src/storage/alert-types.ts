/**
 * Alert storage (issue 34, docs/adr/0019-alert-outbox.md): rules and settings are app data; the
 * issue feed is written by each engine's ingest commit and read here; the outbox holds every
 * message until it is sent or given up on.
 */
import type { AlertDelivery, AlertMessage, AlertRule, AlertRuleFields, DeliveryChannel, IssueFeedEntry, WebhookFormat } from "../model";

export interface NewDelivery {
  ruleId: string | null;
  projectId: string;
  issueId: string | null;
  kind: "issue" | "test";
  channel: DeliveryChannel;
  target: string;
  format: WebhookFormat | null;
  message: AlertMessage;
  /** The same key twice inserts once: (rule, issue, firing, target). */
  dedupeKey: string;
}

/** What one evaluation pass decided: written all or none with the feed rows marked evaluated. */
export interface EvaluationOutcome {
  fired: { ruleId: string; issueId: string; condition: string; at: number }[];
  deliveries: NewDelivery[];
}

export interface AlertRuleRepo {
  create(projectId: string, fields: AlertRuleFields, options: { signingSecret: string; createdBy: string | null; now: number }): Promise<AlertRule>;
  list(projectId: string): Promise<AlertRule[]>;
  /** Every unmuted rule of these projects. */
  activeFor(projectIds: string[]): Promise<AlertRule[]>;
  get(projectId: string, ruleId: string): Promise<AlertRule | null>;
  update(projectId: string, ruleId: string, fields: AlertRuleFields, now: number): Promise<AlertRule | null>;
  setMuted(projectId: string, ruleId: string, muted: boolean, now: number): Promise<AlertRule | null>;
  remove(projectId: string, ruleId: string): Promise<boolean>;
  /** When each rule last fired for the issue, per condition ("<rule id>:<condition id>" → Unix ms). */
  lastFired(issueId: string, ruleIds: string[]): Promise<Map<string, number>>;
}

export interface AlertFeedRepo {
  /**
   * Runs one evaluation pass over the oldest unevaluated feed entries: `decide` reads what it needs
   * and returns what fired; the firing state, the new deliveries and the "evaluated" marks are then
   * written in one transaction. On PostgreSQL one process at a time runs a pass (an advisory lock);
   * resolves with the entries looked at, or null when another process holds the pass.
   */
  evaluate(limit: number, decide: (entries: IssueFeedEntry[]) => Promise<EvaluationOutcome>): Promise<number | null>;
  /** Events of the issue in entries committed since `since`, up to entry `upToId` (frequency conditions). */
  windowCount(issueId: string, since: number, upToId: string): Promise<number>;
  /** Distinct users of the same entries. */
  windowUsers(issueId: string, since: number, upToId: string): Promise<Set<string>>;
  /** Entries not evaluated yet (the job's backlog). */
  pending(): Promise<number>;
  /** Drops evaluated entries committed before `before`. */
  expire(before: number): Promise<number>;
}

export interface AlertOutboxRepo {
  add(deliveries: NewDelivery[], now: number): Promise<void>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs`: no other process claims them meanwhile
   * (PostgreSQL: FOR UPDATE SKIP LOCKED). Each claim counts as an attempt.
   */
  claim(limit: number, now: number, leaseMs: number): Promise<AlertDelivery[]>;
  markSent(id: string, now: number): Promise<void>;
  /** Ends every lease: SQLite only, at start, where any lease is a dead process's (one process owns the file). */
  releaseLeases(): Promise<void>;
  /** A failed attempt: retried at `retryAt`, or given up on (status failed) when it is null. */
  markFailed(id: string, error: string, retryAt: number | null): Promise<void>;
  listForRule(ruleId: string, limit: number): Promise<AlertDelivery[]>;
  get(id: string): Promise<AlertDelivery | null>;
}

export interface AlertSettingsRepo {
  snooze(issueId: string, until: number, userId: string | null, now: number): Promise<void>;
  unsnooze(issueId: string): Promise<void>;
  snoozedUntil(issueId: string): Promise<number | null>;
  /** Projects where this user turned email off. */
  emailOff(userId: string): Promise<Set<string>>;
  /** Of these users, those who turned email off for the project. */
  emailOffAmong(projectId: string, userIds: string[]): Promise<Set<string>>;
  setEmail(userId: string, projectId: string, on: boolean): Promise<void>;
}

export interface AlertStore {
  rules: AlertRuleRepo;
  feed: AlertFeedRepo;
  outbox: AlertOutboxRepo;
  settings: AlertSettingsRepo;
}
