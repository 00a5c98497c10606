/**
 * Cron monitors and user feedback (monitor-types.ts) through the services that use them
 * (src/services/monitors, src/services/feedback), called once per engine
 * (tests/unit/storage-<engine>.test.ts). Failure issues are committed by the real ingest commit.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { CheckInInput, MonitorConfig, Organization, Project, Storage } from "../../src/storage/types";
import { recordCheckIn } from "../../src/services/monitors/check-ins";
import { detectOnce } from "../../src/services/monitors/detection";
import { nextExpected } from "../../src/services/monitors/schedule";
import { recordFeedback } from "../../src/services/feedback/record";
import { processEventPayloadNow } from "../../src/items/event";
import type { EngineFactory } from "./suite";

const MINUTE = 60_000;
// 12:00:30 UTC on a Friday.
const NOW = Date.UTC(2026, 10, 20, 12, 0, 30);

const config = (overrides: Partial<MonitorConfig> = {}): MonitorConfig => ({
  schedule: { type: "crontab", value: "*/10 * * * *" },
  checkinMargin: 2,
  maxRuntime: 5,
  timezone: null,
  failureIssueThreshold: 2,
  recoveryThreshold: 1,
  ...overrides,
});

const checkIn = (guid: string, status: CheckInInput["status"], overrides: Partial<CheckInInput> = {}): CheckInInput => ({
  guid: guid.padStart(32, "0"),
  monitorSlug: "nightly",
  status,
  duration: null,
  environment: "production",
  release: null,
  traceId: null,
  config: config(),
  ...overrides,
});

export function monitorContract(name: string, engine: EngineFactory, extra?: { second?: (storage: Storage) => Promise<Storage> }): void {
  describe(`${name}: cron monitors and feedback`, () => {
    let storage: Storage;
    let organization: Organization;
    let project: Project;
    const commit = (records: Parameters<Storage["ingest"]["commit"]>[0]) => storage.ingest.commit(records);

    beforeEach(async () => {
      storage = await engine.create();
      organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: null });
    });
    afterEach(() => engine.destroy(storage));

    it("creates the monitor from the first check-in's config and finishes the run it started", async () => {
      assert.equal(await recordCheckIn(storage, commit, project.id, checkIn("a1", "in_progress"), NOW), null);
      assert.equal(await recordCheckIn(storage, commit, project.id, checkIn("a1", "ok", { duration: 1234, config: null }), NOW + 2_000), null);
      const monitor = await storage.monitors.getBySlug(organization.id, "nightly");
      assert.ok(monitor);
      assert.deepEqual(monitor.config, config());
      // */10 from 12:00:30 → 12:10, missed after a 2-minute margin.
      assert.equal(monitor.nextCheckIn, Date.UTC(2026, 10, 20, 12, 10));
      assert.equal(monitor.nextCheckInLatest, Date.UTC(2026, 10, 20, 12, 12));
      const runs = await storage.monitors.listCheckIns(monitor.id, 10);
      assert.equal(runs.length, 1);
      assert.equal(runs[0]!.status, "ok");
      assert.equal(runs[0]!.duration, 1234);
      assert.equal(runs[0]!.environment, "production");
      assert.equal(monitor.lastStatus, "ok");
    });

    it("refuses an invalid crontab and a check-in for a monitor nobody configured, storing nothing", async () => {
      const bad = checkIn("b1", "ok", { config: config({ schedule: { type: "crontab", value: "61 * * * *" } }) });
      assert.equal(await recordCheckIn(storage, commit, project.id, bad, NOW), "invalid_schedule");
      assert.equal(await recordCheckIn(storage, commit, project.id, checkIn("b2", "ok", { config: config({ timezone: "Mars/Olympus" }) }), NOW), "invalid_timezone");
      assert.equal(await recordCheckIn(storage, commit, project.id, checkIn("b3", "ok", { config: null }), NOW), "monitor_not_found");
      assert.equal(await storage.monitors.getBySlug(organization.id, "nightly"), null);
    });

    it("reads a crontab in the monitor's timezone", async () => {
      const berlin = config({ schedule: { type: "crontab", value: "0 9 * * *" }, timezone: "Europe/Berlin" });
      await recordCheckIn(storage, commit, project.id, checkIn("c1", "ok", { config: berlin }), NOW);
      const monitor = await storage.monitors.getBySlug(organization.id, "nightly");
      // 09:00 in Berlin in November (UTC+1) is 08:00 UTC, the next day.
      assert.equal(monitor?.nextCheckIn, Date.UTC(2026, 10, 21, 8, 0));
    });

    it("detects a missed run and a timed-out one, once each, and opens an issue after two failures", async () => {
      await recordCheckIn(storage, commit, project.id, checkIn("d1", "ok"), NOW);
      await recordCheckIn(storage, commit, project.id, checkIn("d2", "in_progress"), NOW + 1_000);
      const monitor = (await storage.monitors.getBySlug(organization.id, "nightly"))!;
      // Nothing is due yet.
      assert.deepEqual(await detectOnce(storage, commit, NOW + 3 * MINUTE), { missed: 0, timedOut: 0 });
      // 12:13: the 12:10 run was missed (margin 2), the 12:00:31 run is past its 5 minutes.
      const later = Date.UTC(2026, 10, 20, 12, 13);
      assert.deepEqual(await detectOnce(storage, commit, later), { missed: 1, timedOut: 1 });
      assert.deepEqual(await detectOnce(storage, commit, later), { missed: 0, timedOut: 0 });
      const runs = await storage.monitors.listCheckIns(monitor.id, 10);
      assert.deepEqual(runs.map((run) => run.status).sort(), ["missed", "ok", "timeout"]);
      const missed = runs.find((run) => run.status === "missed")!;
      assert.equal(missed.expectedTime, Date.UTC(2026, 10, 20, 12, 10));
      const after = (await storage.monitors.getById(monitor.id))!;
      assert.equal(after.nextCheckIn, Date.UTC(2026, 10, 20, 12, 20));
      assert.equal(after.health, "failing");
      assert.ok(after.incidentIssueId);
      const issue = (await storage.issues.getById(after.incidentIssueId))!;
      assert.equal(issue.title, "Cron failure: nightly");
      assert.equal(issue.status, "unresolved");
      // The second failure made the issue: one event so far. An ok resolves it (recovery threshold 1).
      assert.equal(issue.count, 1);
      await recordCheckIn(storage, commit, project.id, checkIn("d3", "ok"), later + 1_000);
      assert.equal((await storage.issues.getById(after.incidentIssueId))!.status, "resolved");
      assert.equal((await storage.monitors.getById(monitor.id))!.health, "ok");
    });

    it("counts an error check-in below the threshold without an issue", async () => {
      await recordCheckIn(storage, commit, project.id, checkIn("e1", "error", { duration: 10 }), NOW);
      const monitor = (await storage.monitors.getBySlug(organization.id, "nightly"))!;
      assert.equal(monitor.health, "ok");
      assert.equal(monitor.incidentIssueId, null);
      assert.equal(monitor.lastStatus, "error");
    });

    it("records the next interval from each check-in", async () => {
      const hourly = config({ schedule: { type: "interval", value: 2, unit: "hour" }, checkinMargin: null });
      await recordCheckIn(storage, commit, project.id, checkIn("f1", "ok", { config: hourly }), NOW);
      const monitor = (await storage.monitors.getBySlug(organization.id, "nightly"))!;
      assert.equal(monitor.nextCheckIn, Date.UTC(2026, 10, 20, 14, 0));
      assert.equal(monitor.nextCheckInLatest, Date.UTC(2026, 10, 20, 14, 1));
      assert.deepEqual(nextExpected(hourly, NOW), { nextCheckIn: monitor.nextCheckIn, nextCheckInLatest: monitor.nextCheckInLatest });
    });

    if (extra?.second) {
      it("records a missed run once when two processes detect at the same time", async () => {
        await recordCheckIn(storage, commit, project.id, checkIn("g1", "in_progress"), NOW);
        const other = await extra.second!(storage);
        try {
          const later = Date.UTC(2026, 10, 20, 12, 13);
          const passes = await Promise.all([0, 1, 2, 3].map((i) => detectOnce(i % 2 ? other : storage, (r) => (i % 2 ? other : storage).ingest.commit(r), later)));
          assert.equal(passes.reduce((sum, pass) => sum + pass.missed, 0), 1);
          assert.equal(passes.reduce((sum, pass) => sum + pass.timedOut, 0), 1);
          const monitor = (await storage.monitors.getBySlug(organization.id, "nightly"))!;
          const runs = await storage.monitors.listCheckIns(monitor.id, 10);
          assert.deepEqual(runs.map((run) => run.status).sort(), ["missed", "timeout"]);
        } finally {
          await other.close();
        }
      });
    }

    it("stores feedback once and links it to the issue of the event it names", async () => {
      const raw = { event_id: "e".repeat(32), message: "boom", timestamp: NOW / 1000 };
      const context = { projectId: project.id, envelopeHeaders: {}, receivedAt: NOW, clientIp: undefined, userAgent: undefined, scrubber: null };
      const [result] = await storage.ingest.commit(processEventPayloadNow(raw, JSON.stringify(raw), context).records);
      assert.equal(result?.kind, "event");
      const input = {
        feedbackId: "f".repeat(32), kind: "feedback" as const, name: "Jane", email: "jane@example.com", message: "It broke",
        url: "https://app.test/cart", associatedEventId: "e".repeat(32), replayId: null, traceId: "1".repeat(32),
        environment: "production", release: "web@1", source: "widget", payload: "{}", dateCreated: NOW,
      };
      await recordFeedback(storage, project.id, input);
      await recordFeedback(storage, project.id, input);
      const listed = await storage.feedback.list([project.id], 10);
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.email, "jane@example.com");
      assert.equal(listed[0]!.issueId, result?.kind === "event" ? result.issueId : "?");
      assert.equal((await storage.feedback.listForIssue(listed[0]!.issueId!, 10)).length, 1);
      assert.deepEqual(await storage.feedback.get(project.id, listed[0]!.id), listed[0]);
    });
  });
}
