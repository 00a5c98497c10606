/** Sentry's rule serializer shape for `/api/0/projects/{org}/{project}/rules/`, and the delivery log. */
import type { AlertDelivery, AlertRule, Project } from "../../model";
import { isoDate } from "./common";

export function serializeAlertRule(rule: AlertRule, project: Project, options: { withSecret: boolean }) {
  return {
    id: rule.id,
    name: rule.name,
    actionMatch: rule.actionMatch,
    filterMatch: rule.filterMatch,
    conditions: rule.conditions,
    filters: rule.filters,
    actions: rule.actions,
    frequency: rule.frequency,
    environment: rule.environment,
    projects: [project.slug],
    status: "active",
    // Sentry's name for a muted rule.
    snooze: rule.muted,
    createdBy: rule.createdBy === null ? null : { id: rule.createdBy },
    dateCreated: isoDate(rule.dateCreated),
    dateUpdated: isoDate(rule.dateUpdated),
    // The webhook signing key, only for callers who may change the rule.
    ...(options.withSecret ? { signingSecret: rule.signingSecret } : {}),
  };
}

export function serializeDelivery(delivery: AlertDelivery) {
  return {
    id: delivery.id,
    ruleId: delivery.ruleId,
    issueId: delivery.issueId,
    kind: delivery.kind,
    trigger: delivery.message.trigger,
    channel: delivery.channel,
    target: delivery.target,
    format: delivery.format,
    status: delivery.status,
    attempts: delivery.attempts,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.status === "pending" ? isoDate(delivery.nextAttemptAt) : null,
    dateCreated: isoDate(delivery.dateCreated),
    dateSent: delivery.dateSent === null ? null : isoDate(delivery.dateSent),
  };
}
