/**
 * The alert rule editor's form fields ↔ the rule body the API takes (rule-input.ts), so the page
 * and the API validate alike. The form has one of each filter and one webhook; the API takes more.
 */
import {
  EMAIL_ACTION, EVENT_ATTRIBUTE_FILTER, EVENT_FREQUENCY, FIRST_SEEN, FIRST_SEEN_IN_LATEST_RELEASE, LEVEL_FILTER, REAPPEARED, REGRESSION,
  TAGGED_EVENT_FILTER, UNIQUE_USER_FREQUENCY, WEBHOOK_ACTION, type AlertRuleFields,
} from "../../model";
import { parseInput } from "../parse-input";
import { ruleFieldsOf, ruleInput } from "./rule-input";

/** Each form field as text ("on" for a ticked box, "" for an empty or absent one). */
export type RuleFormValues = Record<string, string>;

const WHEN = { when_first_seen: FIRST_SEEN, when_regression: REGRESSION, when_reappeared: REAPPEARED, when_latest_release: FIRST_SEEN_IN_LATEST_RELEASE } as const;

export function ruleFromForm(form: RuleFormValues): AlertRuleFields {
  const v = (name: string) => (form[name] ?? "").trim();
  const conditions: unknown[] = Object.entries(WHEN).filter(([field]) => v(field) === "on").map(([, id]) => ({ id }));
  if (v("when_frequency") === "on") conditions.push({ id: EVENT_FREQUENCY, value: v("frequency_value"), interval: v("frequency_interval") });
  if (v("when_users") === "on") conditions.push({ id: UNIQUE_USER_FREQUENCY, value: v("users_value"), interval: v("users_interval") });
  const filters: unknown[] = [];
  if (v("level")) filters.push({ id: LEVEL_FILTER, match: "gte", level: v("level") });
  if (v("tag_key")) filters.push({ id: TAGGED_EVENT_FILTER, key: v("tag_key"), match: v("tag_match") || "eq", value: v("tag_value") });
  if (v("title_contains")) filters.push({ id: EVENT_ATTRIBUTE_FILTER, attribute: "message", match: "co", value: v("title_contains") });
  if (v("release_equals")) filters.push({ id: EVENT_ATTRIBUTE_FILTER, attribute: "release", match: "eq", value: v("release_equals") });
  const actions: unknown[] = [];
  if (v("email_owners") === "on") actions.push({ id: EMAIL_ACTION, targetType: "IssueOwners" });
  if (v("email_team")) actions.push({ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: v("email_team") });
  for (const address of v("email_addresses").split(/[\s,;]+/).filter(Boolean)) actions.push({ id: EMAIL_ACTION, targetType: "Address", targetIdentifier: address });
  if (v("webhook_url")) actions.push({ id: WEBHOOK_ACTION, url: v("webhook_url"), format: v("webhook_format") || "json" });
  return ruleFieldsOf(parseInput(ruleInput, {
    name: v("name"), actionMatch: v("action_match") || "any", filterMatch: "all", conditions, filters, actions,
    environment: v("environment") || null, frequency: v("frequency") || "30",
  }));
}

/** The form's initial values for a rule (or the defaults for a new one). */
export function formOfRule(rule: AlertRuleFields | null): RuleFormValues {
  const values: RuleFormValues = { name: "", action_match: "any", frequency: "30", frequency_interval: "1h", users_interval: "1h", webhook_format: "json", tag_match: "eq" };
  if (!rule) return { ...values, when_first_seen: "on", when_regression: "on", email_owners: "on" };
  values.name = rule.name;
  values.action_match = rule.actionMatch;
  values.frequency = String(rule.frequency);
  values.environment = rule.environment ?? "";
  for (const condition of rule.conditions) {
    const field = Object.entries(WHEN).find(([, id]) => id === condition.id)?.[0];
    if (field) values[field] = "on";
    if (condition.id === EVENT_FREQUENCY) Object.assign(values, { when_frequency: "on", frequency_value: String(condition.value), frequency_interval: condition.interval });
    if (condition.id === UNIQUE_USER_FREQUENCY) Object.assign(values, { when_users: "on", users_value: String(condition.value), users_interval: condition.interval });
  }
  for (const filter of rule.filters) {
    if (filter.id === LEVEL_FILTER) values.level = filter.level;
    if (filter.id === TAGGED_EVENT_FILTER) Object.assign(values, { tag_key: filter.key, tag_match: filter.match, tag_value: filter.value ?? "" });
    if (filter.id === EVENT_ATTRIBUTE_FILTER && filter.attribute === "message") values.title_contains = filter.value;
    if (filter.id === EVENT_ATTRIBUTE_FILTER && filter.attribute === "release") values.release_equals = filter.value;
  }
  const addresses: string[] = [];
  for (const action of rule.actions) {
    if (action.id === WEBHOOK_ACTION) Object.assign(values, { webhook_url: action.url, webhook_format: action.format });
    else if (action.targetType === "IssueOwners") values.email_owners = "on";
    else if (action.targetType === "Team") values.email_team = action.targetIdentifier ?? "";
    else if (action.targetType === "Address") addresses.push(action.targetIdentifier ?? "");
  }
  values.email_addresses = addresses.join(", ");
  return values;
}

/** One line per condition, filter and action, for the rule list. */
export function describeRule(rule: AlertRuleFields): { when: string; then: string } {
  const when = rule.conditions.map((condition) => {
    switch (condition.id) {
      case FIRST_SEEN:
        return "a new issue";
      case REGRESSION:
        return "a regression";
      case REAPPEARED:
        return "an issue comes back";
      case FIRST_SEEN_IN_LATEST_RELEASE:
        return "a new issue in the latest release";
      case EVENT_FREQUENCY:
        return `more than ${condition.value} events in ${condition.interval}`;
      case UNIQUE_USER_FREQUENCY:
        return `more than ${condition.value} users in ${condition.interval}`;
    }
  });
  const then = rule.actions.map((action) =>
    action.id === WEBHOOK_ACTION ? `${action.format} webhook to ${new URL(action.url).host}`
      : action.targetType === "IssueOwners" ? "email the project's team"
      : action.targetType === "Address" ? `email ${action.targetIdentifier}` : `email ${action.targetType.toLowerCase()} ${action.targetIdentifier}`,
  );
  return { when: when.join(rule.actionMatch === "all" ? " and " : " or "), then: then.join(", ") };
}
