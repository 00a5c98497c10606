/**
 * Issue alert rules, in Sentry's rule shape (`/api/0/projects/{org}/{project}/rules/`): conditions
 * say when a rule looks at an issue, filters narrow it, actions say who hears of it. Ids are
 * Sentry's where Sentry has the same condition; Periscope's own ones start with "periscope.".
 */

export const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
export const REGRESSION = "sentry.rules.conditions.regression_event.RegressionEventCondition";
/** A resolved or ignored issue sees an event again. */
export const REAPPEARED = "sentry.rules.conditions.reappeared_event.ReappearedEventCondition";
export const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
export const UNIQUE_USER_FREQUENCY = "sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition";
/** A new issue whose first release is the project's latest release. */
export const FIRST_SEEN_IN_LATEST_RELEASE = "periscope.rules.conditions.FirstSeenInLatestReleaseCondition";

export const LEVEL_FILTER = "sentry.rules.filters.level.LevelFilter";
export const TAGGED_EVENT_FILTER = "sentry.rules.filters.tagged_event.TaggedEventFilter";
export const EVENT_ATTRIBUTE_FILTER = "sentry.rules.filters.event_attribute.EventAttributeFilter";

export const EMAIL_ACTION = "sentry.mail.actions.NotifyEmailAction";
export const WEBHOOK_ACTION = "periscope.rules.actions.WebhookAction";

/** Frequency windows, as Sentry spells them. */
export const FREQUENCY_INTERVALS = { "1m": 60_000, "5m": 300_000, "15m": 900_000, "1h": 3_600_000, "1d": 86_400_000, "1w": 604_800_000 } as const;
export type FrequencyInterval = keyof typeof FREQUENCY_INTERVALS;

export type AlertCondition =
  | { id: typeof FIRST_SEEN | typeof REGRESSION | typeof REAPPEARED | typeof FIRST_SEEN_IN_LATEST_RELEASE }
  | { id: typeof EVENT_FREQUENCY | typeof UNIQUE_USER_FREQUENCY; value: number; interval: FrequencyInterval };

/** eq/ne: equals; co/nc: contains; sw/ew: starts/ends with; is/ns: tag set / not set. */
export type StringMatch = "eq" | "ne" | "co" | "nc" | "sw" | "ew";

export type AlertFilter =
  | { id: typeof LEVEL_FILTER; match: "gte" | "eq" | "lte"; level: "debug" | "info" | "warning" | "error" | "fatal" }
  | { id: typeof TAGGED_EVENT_FILTER; key: string; match: StringMatch | "is" | "ns"; value?: string }
  | { id: typeof EVENT_ATTRIBUTE_FILTER; attribute: "message" | "culprit" | "release"; match: StringMatch; value: string };

/**
 * Email: IssueOwners is the issue's assignee, else the members of the project's teams (Sentry's
 * "suggested assignees" falling through to active members); Team and Member name an id; Address
 * is one email address.
 */
export type EmailTargetType = "IssueOwners" | "Team" | "Member" | "Address";
export type WebhookFormat = "json" | "slack" | "discord";

export type AlertAction =
  | { id: typeof EMAIL_ACTION; targetType: EmailTargetType; targetIdentifier?: string }
  | { id: typeof WEBHOOK_ACTION; url: string; format: WebhookFormat };

export interface AlertRuleFields {
  name: string;
  actionMatch: "any" | "all";
  filterMatch: "any" | "all";
  conditions: AlertCondition[];
  filters: AlertFilter[];
  actions: AlertAction[];
  /** Only events of this environment; null for all. */
  environment: string | null;
  /** Action interval in minutes: one issue alerts at most once per interval per rule. */
  frequency: number;
}

export interface AlertRule extends AlertRuleFields {
  id: string;
  projectId: string;
  muted: boolean;
  /** HMAC-SHA256 key of this rule's webhook signatures (Sentry-Hook-Signature). */
  signingSecret: string;
  createdBy: string | null;
  dateCreated: number;
  dateUpdated: number;
}

export type DeliveryStatus = "pending" | "sent" | "failed";
export type DeliveryChannel = "email" | "webhook";

/** What a message says, frozen when the rule fired (the outbox row's payload). */
export interface AlertMessage {
  kind: "issue" | "test" | "metric";
  /** Why it fired, in words: "New issue", "Regression", "Seen more than 10 times in 1h". */
  trigger: string;
  rule: { id: string; name: string } | null;
  organization: { slug: string };
  project: { id: string; slug: string; name: string };
  issue: {
    id: string;
    shortId: string;
    title: string;
    culprit: string;
    level: string;
    status: string;
    count: number;
    userCount: number;
    firstSeen: number;
    lastSeen: number;
    release: string | null;
    environment: string | null;
    /** Link to the issue in Periscope (PUBLIC_URL). */
    url: string;
  } | null;
  /** Metric alerts: the rule's new state and the value that moved it. */
  metric?: { state: "warning" | "critical" | "resolved"; aggregate: string; value: number; threshold: number | null; timeWindow: number; thresholdType: 0 | 1 };
  /** Where the message points: the issue, or the rule's page for a test. */
  url: string;
  /** When the rule fired (or the test was asked for). */
  firedAt: number;
}

export interface AlertDelivery {
  id: string;
  ruleId: string | null;
  projectId: string;
  issueId: string | null;
  kind: "issue" | "test" | "metric";
  /** The metric alert rule of a "metric" delivery (ruleId is an issue rule's). */
  metricRuleId: string | null;
  channel: DeliveryChannel;
  /** Email address or webhook URL. */
  target: string;
  format: WebhookFormat | null;
  message: AlertMessage;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  dateCreated: number;
  dateSent: number | null;
}

/** One issue's change in one committed ingest batch (the alert feed). */
export interface IssueFeedEntry {
  id: string;
  issueId: string;
  projectId: string;
  /** Status before the batch; null when the batch created the issue. */
  prevStatus: string | null;
  count: number;
  users: string[];
  level: string;
  release: string | null;
  tags: [string, string][];
  committed: number;
}
