/**
 * Alert rule input (API body and editor form), webhook bodies and signatures, and the retry
 * schedule (issue 34). Storage and delivery are in tests/contract/alerts-suite.ts and
 * tests/integration/alerts*.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "../../src/errors";
import type { AlertMessage } from "../../src/model";
import { webhookBody } from "../../src/services/alerts/channels/formats";
import { signatureOf } from "../../src/services/alerts/channels/webhook";
import { emailContent } from "../../src/services/alerts/channels/email";
import { ruleFieldsOf, ruleInput } from "../../src/services/alerts/rule-input";
import { formOfRule, ruleFromForm } from "../../src/services/alerts/rule-form";
import { backoffMs } from "../../src/services/alerts/sender";

const message: AlertMessage = {
  kind: "issue", trigger: "New issue", rule: { id: "3", name: "On new issues" }, organization: { slug: "acme" },
  project: { id: "2", slug: "web", name: "Web" },
  issue: {
    id: "41", shortId: "WEB-7", title: "TypeError: x is <undefined>", culprit: "app in handler", level: "error", status: "unresolved",
    count: 3, userCount: 2, firstSeen: Date.UTC(2026, 10, 27, 14), lastSeen: Date.UTC(2026, 10, 27, 15), release: "web@1.0", environment: "production",
    url: "https://p.example/organizations/acme/issues/41/",
  },
  url: "https://p.example/organizations/acme/issues/41/", firedAt: Date.UTC(2026, 10, 27, 15),
};

describe("alert rule input", () => {
  it("takes Sentry's body with the UI's display-only keys and stores it without them", () => {
    const parsed = ruleInput.parse({
      name: "New issues",
      conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition", name: "A new issue is created" }],
      actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "IssueOwners", fallthroughType: "ActiveMembers", name: "Send a notification" }],
    });
    assert.deepEqual(ruleFieldsOf(parsed), {
      name: "New issues", actionMatch: "any", filterMatch: "all", environment: null, frequency: 30, filters: [],
      conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
      actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "IssueOwners" }],
    });
  });

  it("names the field of every problem", () => {
    const problems = (body: unknown) => {
      const result = ruleInput.safeParse(body);
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    const hook = (url: string) => ({ id: "periscope.rules.actions.WebhookAction", url });
    const base = { name: "x", conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }], actions: [hook("https://h.example/")] };
    assert.deepEqual(problems(base), []);
    assert.match(problems({ ...base, conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition", extra: 1 }] }).join(), /conditions\.0: .*extra/);
    assert.deepEqual(problems({ ...base, actions: [hook("gopher://h.example/")] }), ["actions.0.url: must be an http:// or https:// URL, not gopher:"]);
    assert.deepEqual(problems({ ...base, actions: [hook("https://user:pw@h.example/")] }), ["actions.0.url: must not carry a user name or password"]);
    assert.deepEqual(problems({ ...base, actions: [] }), ["actions: must name at least one action"]);
    assert.deepEqual(problems({ ...base, actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "Address", targetIdentifier: "nope" }] }), [
      "actions.0.targetIdentifier: must be an email address when targetType is Address",
    ]);
  });

  it("turns the editor's form into the same rule, and a rule back into the form", () => {
    const form = {
      name: "Busy", when_frequency: "on", frequency_value: "100", frequency_interval: "1h", level: "error", tag_key: "customer", tag_match: "co",
      tag_value: "acme", email_addresses: "a@example.com, b@example.com", webhook_url: "https://hooks.slack.example/x", webhook_format: "slack", frequency: "60",
    };
    const rule = ruleFromForm(form);
    assert.deepEqual(rule, {
      name: "Busy", actionMatch: "any", filterMatch: "all", environment: null, frequency: 60,
      conditions: [{ id: "sentry.rules.conditions.event_frequency.EventFrequencyCondition", value: 100, interval: "1h" }],
      filters: [{ id: "sentry.rules.filters.level.LevelFilter", match: "gte", level: "error" }, { id: "sentry.rules.filters.tagged_event.TaggedEventFilter", key: "customer", match: "co", value: "acme" }],
      actions: [
        { id: "sentry.mail.actions.NotifyEmailAction", targetType: "Address", targetIdentifier: "a@example.com" },
        { id: "sentry.mail.actions.NotifyEmailAction", targetType: "Address", targetIdentifier: "b@example.com" },
        { id: "periscope.rules.actions.WebhookAction", url: "https://hooks.slack.example/x", format: "slack" },
      ],
    });
    assert.deepEqual(ruleFromForm(formOfRule(rule)), rule);
    assert.throws(() => ruleFromForm({ ...form, frequency_value: "0" }), (error: unknown) => error instanceof AppError && /conditions\.0\.value: must be at least 1/.test(error.message));
  });
});

describe("alert messages", () => {
  it("signs the exact body with HMAC-SHA256 (a published test vector)", () => {
    assert.equal(signatureOf("key", "The quick brown fox jumps over the lazy dog"), "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
  });

  it("writes Slack blocks and a Discord embed that link to the issue", () => {
    const slack = JSON.parse(webhookBody("slack", message)) as { blocks: { type: string; text?: { text: string }; elements?: { text: string }[] }[] };
    assert.equal(slack.blocks[0]!.text!.text, "*<https://p.example/organizations/acme/issues/41/|WEB-7: TypeError: x is &lt;undefined&gt;>*");
    assert.deepEqual(slack.blocks[1]!.elements!.map((e) => e.text), ["*Level:* error", "*Project:* web", "*Culprit:* app in handler", "*Why:* New issue"]);
    const discord = JSON.parse(webhookBody("discord", message)) as { content: string; embeds: { title: string; url: string; color: number; fields: { name: string; value: string }[] }[] };
    assert.deepEqual(
      { content: discord.content, title: discord.embeds[0]!.title, url: discord.embeds[0]!.url, color: discord.embeds[0]!.color, fields: discord.embeds[0]!.fields.map((f) => `${f.name}=${f.value}`) },
      { content: "New issue", title: "WEB-7: TypeError: x is <undefined>", url: message.url, color: 0xe5484d, fields: ["Level=error", "Project=web", "Rule=On new issues"] },
    );
    const json = JSON.parse(webhookBody("json", message)) as { data: { issue: { count: string; firstSeen: string; web_url: string } } };
    assert.deepEqual(json.data.issue.count, "3");
    assert.deepEqual(json.data.issue.firstSeen, "2026-11-27T14:00:00.000Z");
  });

  it("escapes the title in the HTML part of the email", () => {
    const mail = emailContent(message);
    assert.equal(mail.subject, "[Periscope] web: WEB-7: TypeError: x is <undefined>");
    assert.ok(mail.html.includes("TypeError: x is &lt;undefined&gt;"));
    assert.ok(mail.text.endsWith("Open in Periscope: https://p.example/organizations/acme/issues/41/"));
  });

  it("retries after the base, then twice as long each time, at most an hour", () => {
    assert.deepEqual([1, 2, 3, 4].map((attempts) => backoffMs(200, attempts)), [200, 400, 800, 1600]);
    assert.equal(backoffMs(60_000, 20), 3_600_000);
  });
});
