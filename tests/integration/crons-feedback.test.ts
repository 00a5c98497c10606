/**
 * Cron monitors and user feedback with the real `@sentry/node` SDK against a real server (SQLite):
 * `withMonitor` with a crontab schedule (a job that succeeds and one that fails), a monitor whose job
 * never checks in (its expected time moved into the past: the job records it missed), a run in
 * progress past its max runtime (timed out), an invalid crontab beside an event in one envelope,
 * `captureFeedback` linked to an error, the legacy `user_report` item and API, and the detection job
 * carrying on after a restart (its state is in the database).
 */
import * as Sentry from "@sentry/node";
import Database from "better-sqlite3";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;

interface MonitorJson {
  slug: string;
  status: string;
  config: { schedule_type: string; schedule: unknown; checkin_margin: number | null; max_runtime: number | null; timezone: string; failure_issue_threshold: number | null };
  environments: { name: string; status: string; nextCheckIn: string | null }[];
  isFailing: boolean;
  issueId: string | null;
}
interface CheckInJson {
  id: string;
  status: string;
  duration: number | null;
  environment: string;
  expectedTime: string | null;
}
interface FeedbackJson {
  eventID: string;
  name: string;
  email: string;
  comments: string;
  url: string | null;
  issue: { id: string } | null;
  event: { id: string } | null;
  kind: string;
}

async function get<T>(apiPath: string): Promise<T> {
  const response = await server.api(apiPath);
  assert.equal(response.status, 200, `GET ${apiPath}: ${response.status}`);
  return (await response.json()) as T;
}

/** Polls `read` until `done` holds (the detection job runs every 200 ms here), failing after 15 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many check-ins were refused with this reason. */
const monitorInvalid = (totals: { outcome: string; category: string; reason: string | null; quantity: number }[], reason: string) =>
  totals.filter((total) => total.category === "monitor" && total.outcome === "invalid" && total.reason === reason).reduce((sum, total) => sum + total.quantity, 0);

const checkIns = (slug: string) => get<CheckInJson[]>(`/api/0/organizations/default/monitors/${slug}/checkins/`);

async function postEnvelope(lines: unknown[]): Promise<Response> {
  const body = lines.map((line) => JSON.stringify(line)).join("\n");
  return fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, { method: "POST", body });
}

/** The server's own SQLite file, opened beside it (WAL) to move a run's deadline into the past. */
function inDatabase(run: (db: Database.Database) => void): void {
  const db = new Database(path.join(server.dataDir, "periscope.sqlite"));
  db.pragma("busy_timeout = 5000");
  try {
    run(db);
  } finally {
    db.close();
  }
}

before(async () => {
  server = await startServer({ MONITOR_DETECTION_INTERVAL_MS: "200" });
  Sentry.init({ dsn: server.dsn, release: "crons-test@1.0.0", environment: "production", defaultIntegrations: false });
});

after(async () => {
  await Sentry.close(5000);
  await server?.stop();
});

describe("cron monitors with @sentry/node", () => {
  it("creates the monitor from withMonitor's crontab config and records the run with its duration", async () => {
    const started = Date.now();
    await Sentry.withMonitor(
      "nightly-report",
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 120));
      },
      { schedule: { type: "crontab", value: "30 2 * * *" }, timezone: "Europe/Berlin", checkinMargin: 5, maxRuntime: 20, failureIssueThreshold: 2, recoveryThreshold: 1 },
    );
    const elapsed = Date.now() - started;
    assert.equal(await Sentry.flush(5000), true);
    const monitor = await get<MonitorJson>("/api/0/organizations/default/monitors/nightly-report/");
    assert.deepEqual(monitor.config.schedule, "30 2 * * *");
    assert.equal(monitor.config.schedule_type, "crontab");
    assert.equal(monitor.config.timezone, "Europe/Berlin");
    assert.deepEqual([monitor.config.checkin_margin, monitor.config.max_runtime, monitor.config.failure_issue_threshold], [5, 20, 2]);
    // 02:30 in Berlin is 01:30 UTC in winter (UTC+1), 00:30 UTC in summer.
    const next = new Date(monitor.environments[0]!.nextCheckIn!);
    assert.ok([0, 1].includes(next.getUTCHours()) && next.getUTCMinutes() === 30, `next check-in ${next.toISOString()}`);
    const runs = await until(() => checkIns("nightly-report"), (list) => list.length === 1 && list[0]!.status === "ok", "the ok check-in");
    assert.equal(runs[0]!.environment, "production");
    assert.ok(runs[0]!.duration! >= 120 && runs[0]!.duration! <= elapsed + 50, `duration ${runs[0]!.duration} within 120..${elapsed}`);
  });

  it("records a failing job as an error and opens the monitor's issue", async () => {
    await assert.rejects(
      Sentry.withMonitor(
        "flaky-import",
        async () => {
          throw new Error("upstream down");
        },
        { schedule: { type: "interval", value: 1, unit: "hour" }, failureIssueThreshold: 1 },
      ),
      /upstream down/,
    );
    assert.equal(await Sentry.flush(5000), true);
    const runs = await until(() => checkIns("flaky-import"), (list) => list.length === 1 && list[0]!.status === "error", "the error check-in");
    assert.ok(runs[0]!.duration !== null && runs[0]!.duration >= 0);
    const monitor = await get<MonitorJson>("/api/0/organizations/default/monitors/flaky-import/");
    assert.equal(monitor.isFailing, true);
    assert.deepEqual(monitor.config.schedule, [1, "hour"]);
    const issues = await get<{ id: string; title: string }[]>(`/api/0/projects/default/default/issues/?query=${encodeURIComponent("monitor.slug:flaky-import")}`);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.title, "Cron failure: flaky-import");
    assert.equal(issues[0]!.id, monitor.issueId);
  });

  it("records a job that never checks in as missed, once per expected time", async () => {
    const created = await server.api("/api/0/organizations/default/monitors/", {
      method: "POST",
      body: JSON.stringify({ project: "default", name: "Yearly audit", slug: "yearly-audit", config: { schedule_type: "crontab", schedule: "0 0 1 1 *", checkin_margin: 1 } }),
    });
    assert.equal(created.status, 201);
    // The schedule's expected time lies in the past: ten minutes ago, missed after one more minute.
    const expected = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000;
    inDatabase((db) => db.prepare("UPDATE monitors SET next_checkin = ?, next_checkin_latest = ? WHERE slug = 'yearly-audit'").run(expected, expected + 60_000));
    const runs = await until(() => checkIns("yearly-audit"), (list) => list.length > 0, "the missed check-in");
    assert.deepEqual(runs.map((run) => run.status), ["missed"]);
    assert.equal(runs[0]!.expectedTime, new Date(expected).toISOString());
    // Several more passes: still one, and the next expected time is the next new year after it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await checkIns("yearly-audit")).length, 1);
    const monitor = await get<MonitorJson>("/api/0/organizations/default/monitors/yearly-audit/");
    assert.equal(monitor.environments[0]!.status, "missed_checkin");
    assert.equal(new Date(monitor.environments[0]!.nextCheckIn!).getTime(), Date.UTC(new Date(expected).getUTCFullYear() + 1, 0, 1));
  });

  it("times out a run in progress past its max runtime", async () => {
    const checkInId = Sentry.captureCheckIn({ monitorSlug: "slow-backup", status: "in_progress" }, { schedule: { type: "crontab", value: "0 3 * * *" }, maxRuntime: 1 });
    assert.equal(await Sentry.flush(5000), true);
    await until(() => checkIns("slow-backup"), (list) => list.length === 1 && list[0]!.status === "in_progress", "the run in progress");
    // Its one minute is over.
    inDatabase((db) => db.prepare("UPDATE monitor_checkins SET timeout_at = ? WHERE guid = ?").run(Date.now() - 1_000, checkInId));
    const runs = await until(() => checkIns("slow-backup"), (list) => list[0]?.status === "timeout", "the timeout");
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!.id, checkInId);
    // A finish arriving after the timeout does not bring the run back.
    Sentry.captureCheckIn({ monitorSlug: "slow-backup", status: "ok", checkInId, duration: 90 });
    assert.equal(await Sentry.flush(5000), true);
    assert.equal((await checkIns("slow-backup"))[0]!.status, "timeout");
    const totals = await server.withStorage((storage) => storage.outcomes.totals(server.projectId, Date.now() - 3_600_000));
    assert.equal(monitorInvalid(totals, "checkin_finished"), 1);
  });

  it("refuses a check-in with an invalid crontab with a reason and keeps the envelope's event", async () => {
    const eventId = randomUUID().replaceAll("-", "");
    const response = await postEnvelope([
      { event_id: eventId, sent_at: new Date().toISOString() },
      { type: "check_in" },
      { check_in_id: randomUUID().replaceAll("-", ""), monitor_slug: "broken-cron", status: "ok", monitor_config: { schedule: { type: "crontab", value: "61 25 * * *" } } },
      { type: "event" },
      { event_id: eventId, message: "kept beside a bad check-in", level: "error" },
    ]);
    assert.equal(response.status, 200);
    const event = await get<{ eventID: string }>(`/api/0/projects/default/default/events/${eventId}/`);
    assert.equal(event.eventID, eventId);
    assert.equal((await server.api("/api/0/organizations/default/monitors/broken-cron/")).status, 404);
    const totals = await server.withStorage((storage) => storage.outcomes.totals(server.projectId, Date.now() - 3_600_000));
    assert.equal(monitorInvalid(totals, "invalid_schedule"), 1);
  });
});

describe("user feedback with @sentry/node", () => {
  it("stores captureFeedback with its fields and links it to the error it names", async () => {
    const errorId = Sentry.captureException(new Error("checkout exploded"));
    assert.equal(await Sentry.flush(5000), true);
    Sentry.captureFeedback({ message: "The checkout button does nothing", name: "Jane Doe", email: "jane@example.com", url: "https://shop.example/cart", associatedEventId: errorId });
    assert.equal(await Sentry.flush(5000), true);
    const list = await until(() => get<FeedbackJson[]>("/api/0/projects/default/default/user-feedback/"), (items) => items.some((item) => item.kind === "feedback"), "the feedback");
    const feedback = list.find((item) => item.kind === "feedback")!;
    assert.deepEqual(
      { name: feedback.name, email: feedback.email, comments: feedback.comments, url: feedback.url, event: feedback.event?.id },
      { name: "Jane Doe", email: "jane@example.com", comments: "The checkout button does nothing", url: "https://shop.example/cart", event: errorId },
    );
    const event = await get<{ groupID: string }>(`/api/0/projects/default/default/events/${errorId}/`);
    assert.equal(feedback.issue?.id, event.groupID);
  });

  it("stores the legacy user_report item and the legacy API's report", async () => {
    const reportedEvent = randomUUID().replaceAll("-", "");
    const response = await postEnvelope([
      { event_id: reportedEvent },
      { type: "user_report" },
      { event_id: reportedEvent, name: "Old SDK", email: "old@example.com", comments: "Legacy widget report" },
    ]);
    assert.equal(response.status, 200);
    const apiEvent = randomUUID().replaceAll("-", "");
    const posted = await server.api("/api/0/projects/default/default/user-feedback/", {
      method: "POST",
      body: JSON.stringify({ event_id: apiEvent, name: "API user", email: "api@example.com", comments: "Sent through the API" }),
    });
    assert.equal(posted.status, 200);
    assert.equal(((await posted.json()) as FeedbackJson).comments, "Sent through the API");
    const bad = await server.api("/api/0/projects/default/default/user-feedback/", { method: "POST", body: JSON.stringify({ event_id: "nope", comments: "x" }) });
    assert.equal(bad.status, 400);
    const list = await get<FeedbackJson[]>("/api/0/projects/default/default/user-feedback/");
    const byEvent = new Map(list.map((item) => [item.eventID, item]));
    assert.deepEqual([byEvent.get(reportedEvent)?.name, byEvent.get(reportedEvent)?.email, byEvent.get(reportedEvent)?.comments], ["Old SDK", "old@example.com", "Legacy widget report"]);
    assert.deepEqual([byEvent.get(apiEvent)?.name, byEvent.get(apiEvent)?.comments], ["API user", "Sent through the API"]);
  });
});

describe("the detection job after a restart", () => {
  it("times out a run that started before the server restarted", async () => {
    const checkInId = Sentry.captureCheckIn({ monitorSlug: "restart-job", status: "in_progress" }, { schedule: { type: "interval", value: 1, unit: "day" }, maxRuntime: 1 });
    assert.equal(await Sentry.flush(5000), true);
    await until(() => checkIns("restart-job"), (list) => list[0]?.status === "in_progress", "the run in progress");
    await server.stop({ keepData: true });
    // While no process runs, its minute passes.
    inDatabase((db) => db.prepare("UPDATE monitor_checkins SET timeout_at = ? WHERE guid = ?").run(Date.now() - 1_000, checkInId));
    server = await startServer({ MONITOR_DETECTION_INTERVAL_MS: "200", DATA_DIR: server.dataDir });
    const runs = await until(() => checkIns("restart-job"), (list) => list[0]?.status === "timeout", "the timeout after the restart");
    assert.deepEqual(runs.map((run) => [run.id, run.status]), [[checkInId, "timeout"]]);
  });
});
