/**
 * The metric alert editor's form fields ↔ the body the API takes (metric-input.ts), so the page and
 * the API validate alike. The form has one webhook and email addresses per rule, sent at both levels.
 */
import { METRIC_AGGREGATES, type MetricRule, type MetricRuleFields, type MetricRuleState } from "../../model";
import { parseInput } from "../parse-input";
import { metricFieldsOf, metricRuleInput } from "./metric-input";

export type MetricFormValues = Record<string, string>;

export function metricRuleFromForm(form: MetricFormValues, projectSlug: string): MetricRuleFields {
  const v = (name: string) => (form[name] ?? "").trim();
  const actions: unknown[] = [];
  if (v("webhook_url")) actions.push({ type: "webhook", targetIdentifier: v("webhook_url"), format: v("webhook_format") || "json" });
  for (const address of v("email_addresses").split(/[\s,;]+/).filter(Boolean)) actions.push({ type: "email", targetType: "specific", targetIdentifier: address });
  const triggers: unknown[] = [{ label: "critical", alertThreshold: v("critical"), actions }];
  if (v("warning")) triggers.push({ label: "warning", alertThreshold: v("warning"), actions });
  return metricFieldsOf(parseInput(metricRuleInput, {
    name: v("name"), aggregate: v("aggregate"), timeWindow: v("time_window"), thresholdType: v("threshold_type") === "1" ? 1 : 0,
    resolveThreshold: v("resolve") === "" ? null : v("resolve"), environment: v("environment") || null, projects: [projectSlug], triggers,
  }));
}

export function formOfMetricRule(rule: MetricRule | null): MetricFormValues {
  if (!rule) return { name: "", aggregate: "count()", time_window: "60", threshold_type: "0", critical: "", warning: "", resolve: "", environment: "", webhook_url: "", webhook_format: "json", email_addresses: "" };
  const critical = rule.triggers.find((t) => t.label === "critical");
  const warning = rule.triggers.find((t) => t.label === "warning");
  const actions = critical?.actions ?? [];
  const webhook = actions.find((a) => a.type === "webhook");
  return {
    name: rule.name, aggregate: rule.aggregate, time_window: String(rule.timeWindow), threshold_type: String(rule.thresholdType),
    critical: critical ? String(critical.alertThreshold) : "", warning: warning ? String(warning.alertThreshold) : "",
    resolve: rule.resolveThreshold === null ? "" : String(rule.resolveThreshold), environment: rule.environment ?? "",
    webhook_url: webhook?.targetIdentifier ?? "", webhook_format: webhook?.type === "webhook" ? webhook.format : "json",
    email_addresses: actions.filter((a) => a.type === "email" && a.targetType === "specific").map((a) => a.targetIdentifier).join(", "),
  };
}

/** "Crash-free session rate (%) below 90 in 60 min" */
export function describeMetricRule(rule: MetricRuleFields): string {
  const critical = rule.triggers.find((t) => t.label === "critical");
  const warning = rule.triggers.find((t) => t.label === "warning");
  const side = rule.thresholdType === 0 ? "above" : "below";
  return `${METRIC_AGGREGATES[rule.aggregate].label} ${side} ${critical?.alertThreshold ?? "?"} (critical)${warning ? `, ${warning.alertThreshold} (warning)` : ""} over ${rule.timeWindow} min${rule.environment ? ` in ${rule.environment}` : ""}`;
}

export const STATE_TONES: Record<MetricRuleState, "green" | "amber" | "red" | "neutral"> = { ok: "green", resolved: "green", warning: "amber", critical: "red" };
