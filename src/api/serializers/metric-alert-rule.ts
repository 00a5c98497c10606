/** Sentry's metric alert rule serializer shape for `/api/0/organizations/{org}/alert-rules/`, with the rule's state. */
import { METRIC_AGGREGATES, type MetricRule, type Project } from "../../model";
import { isoDate } from "./common";

export function serializeMetricRule(rule: MetricRule, project: Project, options: { withSecret: boolean }) {
  return {
    id: rule.id,
    name: rule.name,
    organizationId: rule.organizationId,
    status: 0,
    dataset: METRIC_AGGREGATES[rule.aggregate].dataset,
    query: "",
    aggregate: rule.aggregate,
    timeWindow: rule.timeWindow,
    resolution: 1,
    thresholdType: rule.thresholdType,
    resolveThreshold: rule.resolveThreshold,
    environment: rule.environment,
    projects: [project.slug],
    triggers: rule.triggers.map((trigger) => ({
      id: `${rule.id}-${trigger.label}`,
      alertRuleId: rule.id,
      label: trigger.label,
      thresholdType: rule.thresholdType,
      alertThreshold: trigger.alertThreshold,
      resolveThreshold: rule.resolveThreshold,
      actions: trigger.actions,
    })),
    // Periscope: where the rule stands (ok, warning, critical, resolved) and since when.
    state: rule.state,
    stateValue: rule.stateValue,
    stateChanged: rule.stateChanged === null ? null : isoDate(rule.stateChanged),
    lastEvaluated: rule.lastEvaluated === null ? null : isoDate(rule.lastEvaluated),
    createdBy: rule.createdBy === null ? null : { id: rule.createdBy },
    dateCreated: isoDate(rule.dateCreated),
    dateModified: isoDate(rule.dateUpdated),
    ...(options.withSecret ? { signingSecret: rule.signingSecret } : {}),
  };
}
