/**
 * Alerts end to end (issue 34) with real parts: the real `@sentry/node` SDK sends to a real
 * Periscope; a real SMTP server (smtp-server) receives the email and a real HTTP server the
 * signed webhooks. One email and one webhook per new issue, none for the next 50 events, one more
 * on a regression; a frequency rule fires when the count passes N; a receiver that is down gets
 * the message once it is back; a SIGKILLed server delivers what was pending after its restart,
 * and nothing twice. Bad rule input is refused with the field named and nothing saved.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startSmtpSink, startWebhookReceiver, waitFor, type SmtpSink, type WebhookReceiver } from "../helpers/alert-receivers";
import { OWNER_EMAIL, startServer, type TestServer } from "../helpers/server";

const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
const REGRESSION = "sentry.rules.conditions.regression_event.RegressionEventCondition";
const FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
const WEBHOOK = "periscope.rules.actions.WebhookAction";

let server: TestServer;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let projectSlug: string;

type Json = Record<string, unknown>;

function serverEnv(): Record<string, string> {
  return {
    SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS: "off", SMTP_FROM: "alerts@periscope.test",
    ALERTS_INTERVAL_MS: "100", ALERTS_RETRY_BASE_MS: "200",
  };
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await server.api(path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function createRule(body: Json): Promise<{ id: string; signingSecret: string }> {
  const answer = await api("POST", `/api/0/projects/default/${projectSlug}/rules/`, body);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body as { id: string; signingSecret: string };
}

/** Waits until the server has evaluated every feed entry and sent (or scheduled) every due message. */
async function settled(): Promise<void> {
  await server.withStorage(async (storage) => {
    await waitFor("the alert feed to be evaluated", async () => ((await storage.alerts.feed.pending()) === 0 ? true : undefined));
  });
  // One more job round for the sender after the pass (ALERTS_INTERVAL_MS is 100 ms).
  await new Promise((resolve) => setTimeout(resolve, 400));
}

/** Captures one error thrown from `site` (a function per issue) and waits until the SDK sent it. */
async function send(site: () => never): Promise<string> {
  let eventId = "";
  try {
    site();
  } catch (error) {
    eventId = Sentry.captureException(error);
  }
  assert.equal(await Sentry.flush(5000), true);
  return eventId;
}

async function issueOf(eventId: string): Promise<string> {
  const event = await waitFor("the event", async () => {
    const answer = await api("GET", `/api/0/projects/default/${projectSlug}/events/${eventId}/`);
    return answer.status === 200 ? (answer.body as { groupID: string }) : undefined;
  });
  return event.groupID;
}

function failInCheckout(): never {
  throw new Error("alert test: checkout failed");
}
function failInSearch(): never {
  throw new Error("alert test: search failed");
}
function failInExport(): never {
  throw new Error("alert test: export failed");
}
function failInImport(): never {
  throw new Error("alert test: import failed");
}

const hooksAt = (path: string) => receiver.hooks.filter((hook) => hook.path === path);
const mailsAbout = (text: string) => smtp.mails.filter((mail) => mail.text.includes(text));

before(async () => {
  smtp = await startSmtpSink();
  receiver = await startWebhookReceiver();
  server = await startServer(serverEnv());
  const created = await api("POST", "/api/0/teams/default/default/projects/", { name: "Alerts", platform: "node" });
  assert.equal(created.status, 201);
  projectSlug = (created.body as { slug: string }).slug;
  const keys = await api("GET", `/api/0/projects/default/${projectSlug}/keys/`);
  Sentry.init({
    dsn: (keys.body as { dsn: { public: string } }[])[0]!.dsn.public, release: "alerts@1.0.0", environment: "production",
    // The SDK drops an event equal to the one before (Dedupe): these tests send the same error on purpose.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== "Dedupe"),
  });
});

after(async () => {
  await Sentry.close(5000);
  await server?.stop();
  await smtp?.close();
  await receiver?.close();
});

describe("issue alerts", () => {
  let hookRule: { id: string; signingSecret: string };

  it("starts every new project with the default rule", async () => {
    const rules = await api("GET", `/api/0/projects/default/${projectSlug}/rules/`);
    assert.deepStrictEqual(
      (rules.body as Json[]).map(({ name, conditions, actions, frequency, snooze }) => ({ name, conditions, actions, frequency, snooze })),
      [{
        name: "Send a notification for new issues and regressions", conditions: [{ id: FIRST_SEEN }, { id: REGRESSION }],
        actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "IssueOwners" }], frequency: 30, snooze: false,
      }],
    );
  });

  it("sends one email and one signed webhook for a new issue, none for 50 more events, one more on a regression", async () => {
    hookRule = await createRule({ name: "Hook on new and regressed", conditions: [{ id: FIRST_SEEN }, { id: REGRESSION }], actions: [{ id: WEBHOOK, url: `${receiver.url}/issues`, format: "json" }], frequency: 60 });
    const issueId = await issueOf(await send(failInCheckout));
    const link = `${server.baseUrl}/organizations/default/issues/${issueId}/`;

    const [mail] = await waitFor("the email", () => (mailsAbout("checkout failed").length > 0 ? mailsAbout("checkout failed") : undefined));
    const [hook] = await waitFor("the webhook", () => (hooksAt("/issues").length > 0 ? hooksAt("/issues") : undefined));
    assert.deepStrictEqual({ from: mail!.from, to: mail!.to }, { from: "alerts@periscope.test", to: [OWNER_EMAIL] });
    assert.equal(mail!.subject, `[Periscope] ${projectSlug}: ${(hook!.json.data as { issue: { shortId: string } }).issue.shortId}: Error: alert test: checkout failed`);
    assert.ok(mail!.text.includes(`Open in Periscope: ${link}`), mail!.text);
    assert.ok(mail!.text.startsWith("New issue"), mail!.text);

    assert.equal(hook!.headers["sentry-hook-signature"], createHmac("sha256", hookRule.signingSecret).update(hook!.body).digest("hex"));
    assert.equal(hook!.headers["sentry-hook-resource"], "event_alert");
    const data = hook!.json.data as { triggered_rule: string; trigger: string; issue: Json; project: Json };
    assert.deepStrictEqual(
      { action: hook!.json.action, rule: data.triggered_rule, trigger: data.trigger, title: data.issue.title, level: data.issue.level, url: data.issue.web_url, release: data.issue.release, environment: data.issue.environment, project: data.project.slug },
      { action: "triggered", rule: "Hook on new and regressed", trigger: "New issue", title: "Error: alert test: checkout failed", level: "error", url: link, release: "alerts@1.0.0", environment: "production", project: projectSlug },
    );

    // Through send() like the first: an issue is grouped by the whole stack, the test's frames included.
    for (let i = 0; i < 50; i++) await send(failInCheckout);
    await settled();
    assert.deepEqual(mailsAbout("checkout failed").map((mail) => mail.text.split(/\r?\n/)[0]), ["New issue"], "no more email within the interval");
    assert.equal(hooksAt("/issues").length, 1, "no more webhooks within the interval");

    const resolved = await api("PUT", `/api/0/issues/${issueId}/`, { status: "resolved" });
    assert.equal(resolved.status, 200);
    await send(failInCheckout);
    await waitFor("the regression webhook", () => (hooksAt("/issues").length === 2 ? true : undefined));
    await waitFor("the regression email", () => (mailsAbout("checkout failed").length === 2 ? true : undefined));
    assert.equal((hooksAt("/issues")[1]!.json.data as { trigger: string }).trigger, "Regression");
    assert.ok(mailsAbout("checkout failed")[1]!.text.startsWith("Regression"));
    await settled();
    assert.deepStrictEqual([mailsAbout("checkout failed").length, hooksAt("/issues").length], [2, 2], "exactly one more of each");

    const log = await api("GET", `/api/0/projects/default/${projectSlug}/rules/${hookRule.id}/deliveries/`);
    assert.deepStrictEqual((log.body as Json[]).map((d) => [d.trigger, d.channel, d.status, d.attempts]), [["Regression", "webhook", "sent", 1], ["New issue", "webhook", "sent", 1]]);
  });

  it("fires a frequency rule exactly when the count passes N", async () => {
    await createRule({ name: "More than 4 in an hour", conditions: [{ id: FREQUENCY, value: 4, interval: "1h" }], actions: [{ id: WEBHOOK, url: `${receiver.url}/often`, format: "slack" }], frequency: 60 });
    const counts: number[] = [];
    for (let n = 1; n <= 6; n++) {
      await send(failInSearch);
      await settled();
      counts.push(hooksAt("/often").length);
    }
    assert.deepStrictEqual(counts, [0, 0, 0, 0, 1, 1]);
    const slack = hooksAt("/often")[0]!.json as { text: string; blocks: { type: string; text?: { text: string } }[] };
    assert.deepStrictEqual(slack.blocks.map((block) => block.type), ["section", "context"]);
    assert.match(slack.blocks[0]!.text!.text, /^\*<http:\/\/127\.0\.0\.1:\d+\/organizations\/default\/issues\/\d+\/\|[A-Z-]+-\d+: Error: alert test: search failed>\*$/);
  });

  it("retries while the receiver is down and delivers once it is back", async () => {
    receiver.failWith(503);
    const refusedBefore = receiver.refused;
    await send(failInExport);
    await waitFor("two refused attempts", () => (receiver.refused - refusedBefore >= 2 ? true : undefined));
    const pending = await api("GET", `/api/0/projects/default/${projectSlug}/rules/${hookRule.id}/deliveries/`);
    const [latest] = pending.body as Json[];
    assert.deepStrictEqual([latest!.status, latest!.lastError], ["pending", "the webhook answered HTTP 503"]);
    receiver.recover();
    await waitFor("the webhook after recovery", () => (hooksAt("/issues").some((hook) => hook.body.includes("export failed")) ? true : undefined));
    await settled();
    assert.equal(hooksAt("/issues").filter((hook) => hook.body.includes("export failed")).length, 1);
    const log = await api("GET", `/api/0/projects/default/${projectSlug}/rules/${hookRule.id}/deliveries/`);
    const [sent] = log.body as Json[];
    assert.equal(sent!.status, "sent");
    assert.ok(Number(sent!.attempts) >= 3, `attempts: ${String(sent!.attempts)}`);
  });

  it("sends a test notification through the same outbox", async () => {
    const answer = await api("POST", `/api/0/projects/default/${projectSlug}/rules/${hookRule.id}/test/`);
    assert.deepStrictEqual(answer, { status: 202, body: { queued: [{ channel: "webhook", target: `${receiver.url}/issues` }] } });
    const hook = await waitFor("the test webhook", () => hooksAt("/issues").find((candidate) => candidate.json.action === "test"));
    assert.equal((hook.json.data as { trigger: string }).trigger, "Test notification");
    assert.equal(hook.headers["sentry-hook-signature"], createHmac("sha256", hookRule.signingSecret).update(hook.body).digest("hex"));
  });

  it("delivers what was pending when the server was killed after its restart, and nothing twice", async () => {
    receiver.failWith(503);
    await send(failInImport);
    await waitFor("a refused attempt", async () => {
      const log = await api("GET", `/api/0/projects/default/${projectSlug}/rules/${hookRule.id}/deliveries/`);
      return (log.body as Json[]).some((d) => d.status === "pending" && Number(d.attempts) >= 1) ? true : undefined;
    });
    // SMTP is up: the issue's email goes out (and is marked sent) before the kill; the webhook stays pending.
    await waitFor("the import email", () => (mailsAbout("import failed").length === 1 ? true : undefined));
    const defaultRule = ((await api("GET", `/api/0/projects/default/${projectSlug}/rules/`)).body as { id: string }[])[0]!;
    await waitFor("the import email marked sent", async () => {
      const log = await api("GET", `/api/0/projects/default/${projectSlug}/rules/${defaultRule.id}/deliveries/`);
      return (log.body as Json[]).every((d) => d.status === "sent") ? true : undefined;
    });
    const before = { hooks: receiver.hooks.length, mails: smtp.mails.length };
    await server.kill();
    receiver.recover();
    server = await startServer({ ...serverEnv(), DATA_DIR: server.dataDir });
    await waitFor("the pending webhook after the restart", () => (hooksAt("/issues").some((hook) => hook.body.includes("import failed")) ? true : undefined));
    await settled();
    const newHooks = receiver.hooks.slice(before.hooks);
    assert.deepStrictEqual(newHooks.map((hook) => (hook.json.data as { issue: { title: string } }).issue.title), ["Error: alert test: import failed"], "only the pending one, once");
    // The import issue's email was sent before the kill (SMTP was up); nothing was sent again.
    assert.deepEqual(smtp.mails.slice(before.mails).map((mail) => mail.subject), []);
    assert.equal(mailsAbout("import failed").length, 1);
  });

  it("refuses bad rule input with the field named, and saves nothing", async () => {
    const before = ((await api("GET", `/api/0/projects/default/${projectSlug}/rules/`)).body as Json[]).length;
    const base = { name: "bad", conditions: [{ id: FIRST_SEEN }], actions: [{ id: WEBHOOK, url: "https://hooks.example/x" }] };
    const cases: [Json, RegExp][] = [
      [{ ...base, colour: "red" }, /colour/],
      [{ ...base, conditions: [{ id: FREQUENCY, value: 0, interval: "1h" }] }, /conditions\.0\.value: must be at least 1/],
      [{ ...base, conditions: [{ id: FREQUENCY, value: 5_000_000, interval: "1h" }] }, /conditions\.0\.value: must be at most 1000000/],
      [{ ...base, frequency: 0 }, /frequency: must be at least 1/],
      [{ ...base, actions: [{ id: WEBHOOK, url: "ftp://hooks.example/x" }] }, /actions\.0\.url: must be an http:\/\/ or https:\/\/ URL, not ftp:/],
      [{ ...base, actions: [{ id: WEBHOOK, url: "javascript:alert(1)" }] }, /actions\.0\.url: must be an http:\/\/ or https:\/\/ URL, not javascript:/],
      [{ ...base, actions: [{ id: WEBHOOK, url: "not a url" }] }, /actions\.0\.url: must be an absolute http/],
      [{ ...base, conditions: [{ id: "sentry.rules.conditions.nope" }] }, /conditions\.0.*unknown condition id/],
      [{ ...base, actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "Team", targetIdentifier: "999999" }] }, /actions\.0\.targetIdentifier: no team with id 999999/],
    ];
    for (const [body, message] of cases) {
      const answer = await api("POST", `/api/0/projects/default/${projectSlug}/rules/`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.match((answer.body as { detail: string }).detail, message);
    }
    assert.equal(((await api("GET", `/api/0/projects/default/${projectSlug}/rules/`)).body as Json[]).length, before);
  });
});
