/**
 * The body of POST/PUT `/api/0/projects/{org}/{project}/rules/` (Sentry's rule shape). Every object
 * is strict: an unknown field is a 400 naming it, never silently dropped, and nothing is saved.
 */
import { z } from "zod";
import {
  EMAIL_ACTION, EVENT_ATTRIBUTE_FILTER, EVENT_FREQUENCY, FIRST_SEEN, FIRST_SEEN_IN_LATEST_RELEASE, FREQUENCY_INTERVALS,
  LEVEL_FILTER, REAPPEARED, REGRESSION, TAGGED_EVENT_FILTER, UNIQUE_USER_FREQUENCY, WEBHOOK_ACTION, type AlertRuleFields,
} from "../../model";

const intervals = Object.keys(FREQUENCY_INTERVALS) as [keyof typeof FREQUENCY_INTERVALS, ...(keyof typeof FREQUENCY_INTERVALS)[]];
const stringMatch = z.enum(["eq", "ne", "co", "nc", "sw", "ew"]);
const text = (max: number) => z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** Thresholds: "more than N", N from 1 to a million (a larger one could never be reached in a window). */
const threshold = z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000");

const condition = z.discriminatedUnion("id", [
  z.object({ id: z.literal(FIRST_SEEN), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(REGRESSION), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(REAPPEARED), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(FIRST_SEEN_IN_LATEST_RELEASE), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(EVENT_FREQUENCY), value: threshold, interval: z.enum(intervals), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(UNIQUE_USER_FREQUENCY), value: threshold, interval: z.enum(intervals), name: z.string().optional() }).strict(),
], { error: `unknown condition id (known: ${[FIRST_SEEN, REGRESSION, REAPPEARED, FIRST_SEEN_IN_LATEST_RELEASE, EVENT_FREQUENCY, UNIQUE_USER_FREQUENCY].join(", ")})` });

const filter = z.discriminatedUnion("id", [
  z.object({ id: z.literal(LEVEL_FILTER), match: z.enum(["gte", "eq", "lte"]), level: z.enum(["debug", "info", "warning", "error", "fatal"]), name: z.string().optional() }).strict(),
  z.object({ id: z.literal(TAGGED_EVENT_FILTER), key: text(200), match: z.union([stringMatch, z.enum(["is", "ns"])]), value: z.string().max(200).optional(), name: z.string().optional() }).strict()
    .refine((f) => f.match === "is" || f.match === "ns" || (f.value ?? "") !== "", { message: "value: required unless match is \"is\" or \"ns\"", path: ["value"] }),
  z.object({ id: z.literal(EVENT_ATTRIBUTE_FILTER), attribute: z.enum(["message", "culprit", "release"]), match: stringMatch, value: text(200), name: z.string().optional() }).strict(),
], { error: `unknown filter id (known: ${[LEVEL_FILTER, TAGGED_EVENT_FILTER, EVENT_ATTRIBUTE_FILTER].join(", ")})` });

/** Only http(s) webhooks: a file:, javascript: or gopher: URL is refused, not stored. */
export const webhookUrl = z.string().max(2000, "must be at most 2000 characters").superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "must be an absolute http:// or https:// URL" });
    return;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    ctx.addIssue({ code: "custom", message: `must be an http:// or https:// URL, not ${url.protocol}` });
  } else if (url.username || url.password) {
    ctx.addIssue({ code: "custom", message: "must not carry a user name or password" });
  }
});

const action = z.discriminatedUnion("id", [
  z.object({
    id: z.literal(EMAIL_ACTION),
    targetType: z.enum(["IssueOwners", "Team", "Member", "Address"]),
    targetIdentifier: z.union([z.string(), z.number()]).transform(String).optional(),
    fallthroughType: z.string().optional(),
    name: z.string().optional(),
  }).strict().superRefine((a, ctx) => {
    const id = a.targetIdentifier ?? "";
    if (a.targetType === "Address" && !z.email().safeParse(id).success) {
      ctx.addIssue({ code: "custom", path: ["targetIdentifier"], message: "must be an email address when targetType is Address" });
    }
    if ((a.targetType === "Team" || a.targetType === "Member") && !/^\d+$/.test(id)) {
      ctx.addIssue({ code: "custom", path: ["targetIdentifier"], message: `must be a ${a.targetType === "Team" ? "team" : "user"} id when targetType is ${a.targetType}` });
    }
  }),
  z.object({ id: z.literal(WEBHOOK_ACTION), url: webhookUrl, format: z.enum(["json", "slack", "discord"]).default("json"), name: z.string().optional() }).strict(),
], { error: `unknown action id (known: ${EMAIL_ACTION}, ${WEBHOOK_ACTION})` });

export const ruleInput = z.object({
  name: text(256),
  actionMatch: z.enum(["any", "all"]).default("any"),
  filterMatch: z.enum(["any", "all"]).default("all"),
  conditions: z.array(condition).min(1, "must name at least one condition").max(10, "at most 10 conditions"),
  filters: z.array(filter).max(10, "at most 10 filters").default([]),
  actions: z.array(action).min(1, "must name at least one action").max(10, "at most 10 actions"),
  environment: z.string().max(64).nullable().default(null),
  // Sentry's action interval, in minutes: 1 minute to 30 days.
  frequency: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1 (minute)").max(43_200, "must be at most 43200 (30 days)").default(30),
  owner: z.string().nullable().optional(),
}).strict();

export type RuleInput = z.input<typeof ruleInput>;

type WithoutName<T> = T extends unknown ? Omit<T, "name" | "fallthroughType"> : never;

/** Drops the display-only keys Sentry's UI sends back with each item (`name`, `fallthroughType`). */
function withoutName<T extends { name?: string }>(item: T): WithoutName<T> {
  const copy: Record<string, unknown> = { ...item };
  delete copy.name;
  delete copy.fallthroughType;
  return copy as WithoutName<T>;
}

/** The validated body as stored fields. */
export function ruleFieldsOf(input: z.output<typeof ruleInput>): AlertRuleFields {
  return {
    name: input.name,
    actionMatch: input.actionMatch,
    filterMatch: input.filterMatch,
    conditions: input.conditions.map(withoutName),
    filters: input.filters.map(withoutName),
    actions: input.actions.map(withoutName),
    environment: input.environment,
    frequency: input.frequency,
  };
}
