/**
 * The body of POST/PUT `/api/0/organizations/{org}/alert-rules/` (Sentry's metric alert rule shape).
 * Strict like the issue rule input: an unknown field is a 400 naming it and nothing is saved.
 */
import { z } from "zod";
import { CRASH_FREE_ALIAS, METRIC_AGGREGATES, METRIC_TIME_WINDOWS, type MetricAggregate, type MetricRuleFields } from "../../model";
import { webhookUrl } from "./rule-input";

const aggregates = [...Object.keys(METRIC_AGGREGATES), CRASH_FREE_ALIAS];
const number = z.coerce.number({ error: "must be a number" }).refine(Number.isFinite, "must be a finite number");

const action = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("email"),
    targetType: z.enum(["user", "team", "specific"]),
    targetIdentifier: z.union([z.string(), z.number()]).transform(String),
    id: z.unknown().optional(),
  }).strict().superRefine((a, ctx) => {
    if (a.targetType === "specific" && !z.email().safeParse(a.targetIdentifier).success) {
      ctx.addIssue({ code: "custom", path: ["targetIdentifier"], message: "must be an email address when targetType is specific" });
    }
  }),
  z.object({
    type: z.literal("webhook"),
    targetType: z.literal("specific").default("specific"),
    targetIdentifier: webhookUrl,
    format: z.enum(["json", "slack", "discord"]).default("json"),
    id: z.unknown().optional(),
  }).strict(),
], { error: "unknown action type (known: email, webhook)" });

const trigger = z.object({
  label: z.enum(["critical", "warning"]),
  alertThreshold: number,
  actions: z.array(action).max(10, "at most 10 actions").default([]),
  id: z.unknown().optional(),
  thresholdType: z.unknown().optional(),
  resolveThreshold: z.unknown().optional(),
}).strict();

export const metricRuleInput = z.object({
  name: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters"),
  dataset: z.enum(["events", "sessions", "metrics", "transactions", "generic_metrics"]).optional(),
  aggregate: z.string().refine((value) => aggregates.includes(value), `must be one of: ${aggregates.join("; ")}`),
  query: z.literal("", { error: "must be empty (filters are not supported yet)" }).optional(),
  timeWindow: z.coerce.number({ error: "must be a number" }).refine((value) => (METRIC_TIME_WINDOWS as readonly number[]).includes(value), `must be one of ${METRIC_TIME_WINDOWS.join(", ")} (minutes)`),
  thresholdType: z.union([z.literal(0), z.literal(1)], { error: "must be 0 (above) or 1 (below)" }),
  resolveThreshold: number.nullable().optional(),
  triggers: z.array(trigger).min(1, "needs a critical trigger").max(2, "at most a critical and a warning trigger"),
  projects: z.array(z.string()).length(1, "must name exactly one project slug"),
  environment: z.string().min(1).max(64).nullable().optional(),
  owner: z.unknown().optional(),
}).strict().superRefine((rule, ctx) => {
  const critical = rule.triggers.find((t) => t.label === "critical");
  const warning = rule.triggers.find((t) => t.label === "warning");
  if (!critical) ctx.addIssue({ code: "custom", path: ["triggers"], message: "needs a trigger labelled critical" });
  if (rule.triggers.length === 2 && rule.triggers[0]!.label === rule.triggers[1]!.label) ctx.addIssue({ code: "custom", path: ["triggers"], message: "labels must differ" });
  const above = rule.thresholdType === 0;
  const percentage = rule.aggregate.includes("crash");
  for (const [index, t] of rule.triggers.entries()) {
    if (t.alertThreshold < 0 || (percentage && t.alertThreshold > 100)) {
      ctx.addIssue({ code: "custom", path: ["triggers", index, "alertThreshold"], message: percentage ? "must be between 0 and 100 (a percentage)" : "must not be negative" });
    }
  }
  // A warning comes before the critical level: below it when firing above, above it when firing below.
  if (critical && warning && (above ? warning.alertThreshold > critical.alertThreshold : warning.alertThreshold < critical.alertThreshold)) {
    ctx.addIssue({ code: "custom", path: ["triggers"], message: `the warning threshold must be ${above ? "at most" : "at least"} the critical threshold` });
  }
  const lowest = warning ?? critical;
  if (lowest && rule.resolveThreshold != null && (above ? rule.resolveThreshold > lowest.alertThreshold : rule.resolveThreshold < lowest.alertThreshold)) {
    ctx.addIssue({ code: "custom", path: ["resolveThreshold"], message: `must be ${above ? "at most" : "at least"} the ${lowest.label} threshold` });
  }
});

export type MetricRuleInput = z.output<typeof metricRuleInput>;

export function metricFieldsOf(input: MetricRuleInput): MetricRuleFields {
  const aggregate = (input.aggregate === CRASH_FREE_ALIAS ? "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate" : input.aggregate) as MetricAggregate;
  const triggers = [...input.triggers].sort((a, b) => (a.label === b.label ? 0 : a.label === "critical" ? -1 : 1));
  return {
    name: input.name,
    aggregate,
    timeWindow: input.timeWindow,
    thresholdType: input.thresholdType,
    resolveThreshold: input.resolveThreshold ?? null,
    environment: input.environment ?? null,
    triggers: triggers.map((t) => ({
      label: t.label,
      alertThreshold: t.alertThreshold,
      actions: t.actions.map((a) => (a.type === "email"
        ? { type: "email" as const, targetType: a.targetType, targetIdentifier: a.targetIdentifier }
        : { type: "webhook" as const, targetType: "specific" as const, targetIdentifier: a.targetIdentifier, format: a.format })),
    })),
  };
}
