import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkInOf } from "../../src/items/check-in";
import { feedbackOf, userReportOf } from "../../src/items/feedback";
import { MonitorConfigError, nextScheduled, validateMonitorConfig } from "../../src/services/monitors/schedule";
import type { MonitorConfig } from "../../src/model";

const ID = "a".repeat(32);
const context = { projectId: "1", envelopeHeaders: {}, receivedAt: Date.UTC(2026, 10, 27, 12, 0), clientIp: undefined, userAgent: undefined };

describe("check_in items", () => {
  it("reads what @sentry/node sends: seconds become ms, the config is kept as sent", () => {
    const input = checkInOf({
      check_in_id: ID, monitor_slug: "nightly", status: "ok", duration: 1.5, release: "web@1", environment: "production",
      contexts: { trace: { trace_id: "B".repeat(32) } },
      monitor_config: { schedule: { type: "interval", value: 2, unit: "hour" }, checkin_margin: 5, max_runtime: 10, timezone: "Europe/Paris", failure_issue_threshold: 2, recovery_threshold: 3 },
    });
    assert.deepEqual(input, {
      guid: ID, monitorSlug: "nightly", status: "ok", duration: 1500, environment: "production", release: "web@1", traceId: "b".repeat(32),
      config: { schedule: { type: "interval", value: 2, unit: "hour" }, checkinMargin: 5, maxRuntime: 10, timezone: "Europe/Paris", failureIssueThreshold: 2, recoveryThreshold: 3 },
    });
  });

  it("names why a check-in cannot be one", () => {
    assert.equal(checkInOf({ check_in_id: ID, status: "ok" }), "invalid_json");
    assert.equal(checkInOf({ check_in_id: ID, monitor_slug: "x", status: "done" }), "invalid_json");
    assert.equal(checkInOf({ check_in_id: "nope", monitor_slug: "x", status: "ok" }), "invalid_json");
    assert.equal(checkInOf({ check_in_id: ID, monitor_slug: "x", status: "ok", duration: -1 }), "invalid_json");
    assert.equal(checkInOf({ check_in_id: ID, monitor_slug: "x", status: "ok", monitor_config: { schedule: { type: "cron", value: "* * * * *" } } }), "invalid_schedule");
    assert.equal(checkInOf({ check_in_id: ID, monitor_slug: "x", status: "ok", monitor_config: { schedule: { type: "crontab", value: "* * * * *" }, checkin_margin: "5" } }), "invalid_monitor_config");
  });
});

describe("monitor schedules", () => {
  const crontab = (value: string, timezone: string | null = null): MonitorConfig => ({
    schedule: { type: "crontab", value }, checkinMargin: null, maxRuntime: null, timezone, failureIssueThreshold: null, recoveryThreshold: null,
  });

  it("refuses what croner cannot read, unknown zones and out-of-range minutes, with the reason", () => {
    const reasonOf = (config: MonitorConfig) => {
      try {
        validateMonitorConfig(config);
        return null;
      } catch (error) {
        return error instanceof MonitorConfigError ? error.reason : "other";
      }
    };
    assert.equal(reasonOf(crontab("61 * * * *")), "invalid_schedule");
    assert.equal(reasonOf(crontab("0 0 * * * *")), "invalid_schedule");
    assert.equal(reasonOf(crontab("0 * * * *", "Mars/Base")), "invalid_timezone");
    assert.equal(reasonOf({ ...crontab("0 * * * *"), checkinMargin: 0 }), "invalid_monitor_config");
    assert.equal(reasonOf({ ...crontab("0 * * * *"), failureIssueThreshold: 721 }), "invalid_monitor_config");
    assert.equal(reasonOf({ ...crontab("0 * * * *"), schedule: { type: "interval", value: 0, unit: "day" } }), "invalid_schedule");
    assert.equal(reasonOf(crontab("@hourly")), null);
  });

  it("counts the next time from the minute, in the monitor's zone and across a DST change", () => {
    // 2026-03-29 01:00 UTC: Berlin moves from UTC+1 to UTC+2; 03:30 Berlin is then 01:30 UTC.
    assert.equal(nextScheduled(crontab("30 3 * * *", "Europe/Berlin"), Date.UTC(2026, 2, 28, 12, 0)), Date.UTC(2026, 2, 29, 1, 30));
    assert.equal(nextScheduled(crontab("30 3 * * *", "Europe/Berlin"), Date.UTC(2026, 2, 27, 12, 0)), Date.UTC(2026, 2, 28, 2, 30));
    // An interval from 10:17:45 counts from 10:17; a month from Jan 31 ends on Feb 28, a year from Feb 29 on Feb 28.
    const everyMonth: MonitorConfig = { ...crontab("x"), schedule: { type: "interval", value: 1, unit: "month" } };
    assert.equal(nextScheduled(everyMonth, Date.UTC(2026, 0, 31, 10, 17, 45)), Date.UTC(2026, 1, 28, 10, 17));
    const everyYear: MonitorConfig = { ...crontab("x"), schedule: { type: "interval", value: 1, unit: "year" } };
    assert.equal(nextScheduled(everyYear, Date.UTC(2028, 1, 29, 6, 0)), Date.UTC(2029, 1, 28, 6, 0));
  });
});

describe("feedback items", () => {
  it("takes the new feedback event's fields, the envelope's id winning", () => {
    const raw = {
      event_id: "c".repeat(32), type: "feedback", timestamp: context.receivedAt / 1000 - 5, environment: "production", release: "web@2",
      contexts: { feedback: { message: " It broke ", contact_email: "a@b.example", name: "Ann", url: "https://x.example/p", associated_event_id: "d".repeat(32), replay_id: "e".repeat(32), source: "widget" }, trace: { trace_id: "f".repeat(32) } },
    };
    const input = feedbackOf(raw, "{}", { ...context, envelopeHeaders: { event_id: "1".repeat(32) } });
    assert.ok(typeof input !== "string");
    assert.deepEqual(
      [input.feedbackId, input.message, input.email, input.name, input.url, input.associatedEventId, input.replayId, input.traceId, input.source, input.dateCreated],
      ["1".repeat(32), "It broke", "a@b.example", "Ann", "https://x.example/p", "d".repeat(32), "e".repeat(32), "f".repeat(32), "widget", context.receivedAt - 5_000],
    );
    assert.equal(feedbackOf({ contexts: { feedback: { message: "  " } } }, "{}", context), "missing_message");
  });

  it("takes a legacy user report about the event it names", () => {
    const input = userReportOf({ event_id: "2".repeat(32), name: "Bo", email: "bo@example.com", comments: "slow" }, "{}", context);
    assert.ok(typeof input !== "string");
    assert.deepEqual([input.feedbackId, input.associatedEventId, input.kind, input.message], ["2".repeat(32), "2".repeat(32), "user_report", "slow"]);
    assert.equal(userReportOf({ event_id: "2".repeat(32) }, "{}", context), "missing_message");
    assert.equal(userReportOf({ comments: "x" }, "{}", context), "invalid_json");
  });
});
