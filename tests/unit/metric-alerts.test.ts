/** Metric alerts (issue 34 item 2): the state machine, input rules and the message bodies. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MetricRule, MetricRuleState } from "../../src/model";
import { webhookBody } from "../../src/services/alerts/channels/formats";
import { metricMessage, nextState } from "../../src/services/alerts/metric-evaluator";
import { metricFieldsOf, metricRuleInput } from "../../src/services/alerts/metric-input";

function rule(over: Partial<MetricRule>): MetricRule {
  return {
    id: "7", organizationId: "1", projectId: "2", name: "r", aggregate: "count()", timeWindow: 5, thresholdType: 0, resolveThreshold: null, environment: null,
    triggers: [{ label: "critical", alertThreshold: 10, actions: [] }, { label: "warning", alertThreshold: 5, actions: [] }],
    signingSecret: "s", state: "ok", stateSeq: 0, stateValue: null, stateChanged: null, lastEvaluated: null, createdBy: null, dateCreated: 0, dateUpdated: 0,
    ...over,
  };
}

describe("metric alert state machine", () => {
  it("walks ok → warning → critical → warning → resolved above the thresholds (strictly above)", () => {
    const walk: [MetricRuleState, number, MetricRuleState][] = [
      ["ok", 5, "ok"], ["ok", 6, "warning"], ["warning", 11, "critical"], ["critical", 10, "warning"], ["warning", 5, "resolved"], ["resolved", 3, "resolved"], ["resolved", 12, "critical"],
    ];
    for (const [from, value, to] of walk) assert.equal(nextState(rule({ state: from }), value), to, `${from} at ${value}`);
  });

  it("waits for the resolve threshold when there is one", () => {
    const r = rule({ state: "critical", resolveThreshold: 3, triggers: [{ label: "critical", alertThreshold: 10, actions: [] }] });
    assert.equal(nextState(r, 4), "critical");
    assert.equal(nextState(r, 3), "resolved");
  });

  it("fires below for crash-free rates", () => {
    const r = rule({ thresholdType: 1, resolveThreshold: 95, triggers: [{ label: "critical", alertThreshold: 90, actions: [] }, { label: "warning", alertThreshold: 93, actions: [] }] });
    assert.equal(nextState(r, 95), "ok");
    assert.equal(nextState(r, 92.5), "warning");
    assert.equal(nextState(r, 80), "critical");
    assert.equal(nextState({ ...r, state: "critical" }, 94), "warning");
    assert.equal(nextState({ ...r, state: "warning" }, 94), "warning");
    assert.equal(nextState({ ...r, state: "warning" }, 96), "resolved");
  });
});

describe("metric rule input", () => {
  const base = { name: "n", aggregate: "crash_free_rate(session)", timeWindow: 60, thresholdType: 1, projects: ["p"], triggers: [{ label: "warning", alertThreshold: 95 }, { label: "critical", alertThreshold: 90 }] };

  it("maps Sentry's crash-free alias and puts the critical trigger first", () => {
    const fields = metricFieldsOf(metricRuleInput.parse(base));
    assert.equal(fields.aggregate, "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate");
    assert.deepStrictEqual(fields.triggers.map((t) => t.label), ["critical", "warning"]);
  });

  it("refuses a warning past the critical level and two triggers of one label", () => {
    const wrong = metricRuleInput.safeParse({ ...base, triggers: [{ label: "warning", alertThreshold: 80 }, { label: "critical", alertThreshold: 90 }] });
    assert.equal(wrong.success, false);
    assert.match(JSON.stringify(wrong.error?.issues), /warning threshold must be at least the critical threshold/);
    const twice = metricRuleInput.safeParse({ ...base, triggers: [{ label: "critical", alertThreshold: 90 }, { label: "critical", alertThreshold: 80 }] });
    assert.match(JSON.stringify(twice.error?.issues), /labels must differ/);
  });
});

describe("metric alert messages", () => {
  const organization = { id: "1", slug: "acme" } as never;
  const project = { id: "2", slug: "shop", name: "Shop" } as never;
  const message = metricMessage("https://periscope.example", {
    organization, project, rule: rule({ thresholdType: 1, aggregate: "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate" }),
    state: "critical", value: 80, trigger: { label: "critical", alertThreshold: 90, actions: [] }, now: 1_700_000_000_000,
  });

  it("says the level, value and threshold, and links to the rule", () => {
    assert.equal(message.trigger, "Critical: Crash-free session rate (%) is 80% in the last 5 min (below 90%)");
    assert.equal(message.url, "https://periscope.example/organizations/acme/alerts/shop/metric/7/");
    const json = JSON.parse(webhookBody("json", message)) as { action: string; data: { metric_alert: { value: number; threshold: number } } };
    assert.equal(json.action, "critical");
    assert.deepStrictEqual([json.data.metric_alert.value, json.data.metric_alert.threshold], [80, 90]);
  });

  it("titles Slack and Discord bodies with the level and rule", () => {
    const slack = JSON.parse(webhookBody("slack", message)) as { text: string };
    assert.match(slack.text, /^Critical: Crash-free .* Critical: r https:/);
    const discord = JSON.parse(webhookBody("discord", message)) as { embeds: { title: string; color: number }[] };
    assert.equal(discord.embeds[0]!.title, "Critical: r");
    assert.equal(discord.embeds[0]!.color, 0xe5484d);
  });
});
