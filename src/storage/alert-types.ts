/**
 * Alert storage (issue 34, docs/adr/0019-alert-outbox.md): rules and settings are app data; the
 * issue feed is written by each engine's ingest commit and read here; the outbox holds every
 * message until it is sent or given up on.
 */
import type { AlertDelivery, AlertMessage, AlertRule, AlertRuleFields, DeliveryChannel, IssueFeedEntry, MetricRule, MetricRuleFields, MetricRuleState, WebhookFormat } from "../model";

export interface NewDelivery {
  ruleId: string | null;
  projectId: string;
  issueId: string | null;
  kind: "issue" | "test" | "metric";
  /** Metric alerts: the metric rule (ruleId null). */
  metricRuleId?: string | null;
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
  /** Metric alerts: the project's entries committed since `since` (error count and users of a window). */
  projectEntries(projectId: string, since: number): Promise<{ count: number; users: string[]; tags: [string, string][] }[]>;
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

// Metric alerts (issue 34 item 2).
/** A metric rule's state change decided by one pass, written with its deliveries in one transaction. */
export interface MetricStateChange {
  ruleId: string;
  state: MetricRuleState;
  /** The seq the rule had when read: the write is skipped if it moved meanwhile. */
  fromSeq: number;
  value: number;
  at: number;
}

export interface MetricOutcome {
  changes: MetricStateChange[];
  /** Rules looked at without a change (last_evaluated). */
  evaluated: string[];
  deliveries: NewDelivery[];
}

export interface MetricRuleRepo {
  create(organizationId: string, projectId: string, fields: MetricRuleFields, options: { signingSecret: string; createdBy: string | null; now: number }): Promise<MetricRule>;
  /** The organisation's rules, of these projects when given. */
  list(organizationId: string, projectIds?: string[]): Promise<MetricRule[]>;
  get(organizationId: string, ruleId: string): Promise<MetricRule | null>;
  /** Replaces the fields; a changed rule starts again from ok. */
  update(organizationId: string, ruleId: string, fields: MetricRuleFields, now: number): Promise<MetricRule | null>;
  remove(organizationId: string, ruleId: string): Promise<boolean>;
  /**
   * One evaluation pass over every rule, one process at a time (PostgreSQL: an advisory lock):
   * `decide` gets the rules as stored and returns their changes and messages, written in one
   * transaction. Resolves with the rules looked at, or null when another process holds the pass.
   */
  evaluate(decide: (rules: MetricRule[]) => Promise<MetricOutcome>): Promise<number | null>;
  listDeliveries(ruleId: string, limit: number): Promise<AlertDelivery[]>;
}

export interface AlertStore {
  metricRules: MetricRuleRepo;
  rules: AlertRuleRepo;
  feed: AlertFeedRepo;
  outbox: AlertOutboxRepo;
  settings: AlertSettingsRepo;
}
