/**
 * Metric alert rules (issue 34 item 2), in Sentry's metric alert rule shape
 * (`/api/0/organizations/{org}/alert-rules/`): an aggregate of one project over a window, compared
 * with a critical and optionally a warning threshold; the rule's state changes are notified once each.
 */
import type { WebhookFormat } from "./alerts";

/** The aggregates Periscope computes, as Sentry spells them. */
export const METRIC_AGGREGATES = {
  "count()": { dataset: "events", label: "Number of errors" },
  "count_unique(user)": { dataset: "events", label: "Users experiencing errors" },
  "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate": { dataset: "sessions", label: "Crash-free session rate (%)" },
  "p95(transaction.duration)": { dataset: "transactions", label: "Transaction duration p95 (ms)" },
} as const;
export type MetricAggregate = keyof typeof METRIC_AGGREGATES;
/** Another spelling Sentry accepts for the crash-free session rate. */
export const CRASH_FREE_ALIAS = "crash_free_rate(session)";

/** Sentry's timeWindow choices, in minutes (1 minute to 1 day). */
export const METRIC_TIME_WINDOWS = [1, 5, 10, 15, 30, 60, 120, 240, 1440] as const;

export type MetricTriggerLabel = "critical" | "warning";

/**
 * Sentry's metric actions: email to a user, a team or an address (targetType user/team/specific),
 * and Periscope's signed webhook (targetIdentifier is the URL).
 */
export type MetricAction =
  | { type: "email"; targetType: "user" | "team" | "specific"; targetIdentifier: string }
  | { type: "webhook"; targetType: "specific"; targetIdentifier: string; format: WebhookFormat };

export interface MetricTrigger {
  label: MetricTriggerLabel;
  alertThreshold: number;
  actions: MetricAction[];
}

export interface MetricRuleFields {
  name: string;
  aggregate: MetricAggregate;
  /** Minutes. */
  timeWindow: number;
  /** 0: fires above the threshold; 1: below. */
  thresholdType: 0 | 1;
  /** Back past this value the rule resolves; null: once no trigger's threshold is crossed. */
  resolveThreshold: number | null;
  environment: string | null;
  triggers: MetricTrigger[];
}

/** ok until a threshold is crossed; resolved after a warning or critical recovers (then like ok). */
export type MetricRuleState = "ok" | "warning" | "critical" | "resolved";

export interface MetricRule extends MetricRuleFields {
  id: string;
  organizationId: string;
  projectId: string;
  signingSecret: string;
  state: MetricRuleState;
  /** Counts state changes: each change's notification is queued once (the outbox dedupe key). */
  stateSeq: number;
  /** The value at the last state change. */
  stateValue: number | null;
  stateChanged: number | null;
  lastEvaluated: number | null;
  createdBy: string | null;
  dateCreated: number;
  dateUpdated: number;
}
