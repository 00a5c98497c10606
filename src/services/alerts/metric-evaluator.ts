/**
 * One metric alert pass (storage.alerts.metricRules.evaluate, run by the alerts job): each rule's
 * value, its next state, and a message to its trigger's actions for every change. The change and its
 * outbox rows are written in one transaction under the pass's lock; the dedupe key holds the rule's
 * state seq, so a change is queued once however many processes or retries see it.
 */
import {
  EMAIL_ACTION, METRIC_AGGREGATES, WEBHOOK_ACTION, type AlertAction, type AlertMessage, type MetricAction, type MetricRule,
  type MetricRuleState, type MetricTrigger, type Organization, type Project,
} from "../../model";
import type { MetricOutcome, Storage } from "../../storage/types";
import { metricValue } from "./metric-values";
import { recipientsOf } from "./recipients";

type Level = "warning" | "critical";

const crosses = (rule: MetricRule, value: number, threshold: number) => (rule.thresholdType === 0 ? value > threshold : value < threshold);

/**
 * The state after seeing `value`: the highest level whose threshold is crossed; with none crossed, an
 * active rule resolves once the value is back past resolveThreshold (or, without one, at once),
 * and otherwise stays active — at the warning level when it has one.
 */
export function nextState(rule: MetricRule, value: number): MetricRuleState {
  const critical = rule.triggers.find((t) => t.label === "critical");
  const warning = rule.triggers.find((t) => t.label === "warning");
  if (critical && crosses(rule, value, critical.alertThreshold)) return "critical";
  if (warning && crosses(rule, value, warning.alertThreshold)) return "warning";
  const active = rule.state === "warning" || rule.state === "critical";
  if (!active) return rule.state;
  if (rule.resolveThreshold === null) return "resolved";
  const recovered = rule.thresholdType === 0 ? value <= rule.resolveThreshold : value >= rule.resolveThreshold;
  if (recovered) return "resolved";
  // Back over the critical threshold but not yet resolved: a rule with a warning level steps down to it (as Sentry's).
  return warning ? "warning" : rule.state;
}

export function toAlertAction(action: MetricAction): AlertAction {
  if (action.type === "webhook") return { id: WEBHOOK_ACTION, url: action.targetIdentifier, format: action.format };
  const targetType = action.targetType === "user" ? "Member" : action.targetType === "team" ? "Team" : "Address";
  return { id: EMAIL_ACTION, targetType, targetIdentifier: action.targetIdentifier };
}

export function metricRuleUrl(publicUrl: string, organization: Organization, project: Project, rule: MetricRule): string {
  return `${publicUrl}/organizations/${organization.slug}/alerts/${project.slug}/metric/${rule.id}/`;
}

function formatValue(rule: MetricRule, value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return rule.aggregate.includes("crash") ? `${rounded}%` : rule.aggregate.startsWith("p95") ? `${rounded} ms` : String(rounded);
}

export function metricMessage(publicUrl: string, context: { organization: Organization; project: Project; rule: MetricRule; state: Level | "resolved"; value: number; trigger: MetricTrigger | null; now: number }): AlertMessage {
  const { organization, project, rule, state, value, trigger, now } = context;
  const label = METRIC_AGGREGATES[rule.aggregate].label;
  const side = rule.thresholdType === 0 ? "above" : "below";
  const words = state === "resolved"
    ? `Resolved: ${label} is ${formatValue(rule, value)} in the last ${rule.timeWindow} min`
    : `${state === "critical" ? "Critical" : "Warning"}: ${label} is ${formatValue(rule, value)} in the last ${rule.timeWindow} min (${side} ${formatValue(rule, trigger?.alertThreshold ?? 0)})`;
  return {
    kind: "metric",
    trigger: words,
    rule: { id: rule.id, name: rule.name },
    organization: { slug: organization.slug },
    project: { id: project.id, slug: project.slug, name: project.name },
    issue: null,
    metric: { state, aggregate: rule.aggregate, value, threshold: trigger?.alertThreshold ?? rule.resolveThreshold, timeWindow: rule.timeWindow, thresholdType: rule.thresholdType },
    url: metricRuleUrl(publicUrl, organization, project, rule),
    firedAt: now,
  };
}

export async function decideMetrics(storage: Storage, publicUrl: string, rules: MetricRule[], now: number): Promise<MetricOutcome> {
  const outcome: MetricOutcome = { changes: [], evaluated: [], deliveries: [] };
  for (const rule of rules) {
    const project = await storage.projects.getById(rule.projectId);
    const organization = project ? await storage.organizations.getById(project.organizationId) : null;
    if (!project || !organization) continue;
    const value = await metricValue(storage, rule, now);
    const state = value === null ? rule.state : nextState(rule, value);
    if (value === null || state === rule.state) {
      outcome.evaluated.push(rule.id);
      continue;
    }
    outcome.changes.push({ ruleId: rule.id, state, fromSeq: rule.stateSeq, value, at: now });
    // A level speaks to its own trigger's actions; "resolved" to those of the level it leaves.
    const level: Level = state === "resolved" ? (rule.state === "critical" ? "critical" : "warning") : state === "critical" ? "critical" : "warning";
    const trigger = rule.triggers.find((t) => t.label === level) ?? rule.triggers.find((t) => t.label === "critical") ?? null;
    if (!trigger || state === "ok") continue;
    const message = metricMessage(publicUrl, { organization, project, rule, state, value, trigger: state === "resolved" ? null : trigger, now });
    for (const recipient of await recipientsOf(storage, organization, project, trigger.actions.map(toAlertAction))) {
      outcome.deliveries.push({
        ruleId: null, metricRuleId: rule.id, projectId: project.id, issueId: null, kind: "metric", channel: recipient.channel, target: recipient.target,
        format: recipient.channel === "webhook" ? recipient.format : null, message,
        dedupeKey: `metric:${rule.id}:${rule.stateSeq + 1}:${recipient.channel}:${recipient.target}`,
      });
    }
  }
  return outcome;
}
