/**
 * The alerts part of the storage contract (issue 34), called once per engine: the issue feed the
 * ingest commit writes, an evaluation pass with real rules (services/alerts/evaluator.ts), and the
 * outbox's claims and leases. Events go through the real event item processor.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, it } from "node:test";
import { eventItem } from "../../src/items/event";
import { EVENT_FREQUENCY, FIRST_SEEN, REGRESSION, WEBHOOK_ACTION, type AlertRuleFields, type IngestRecord } from "../../src/model";
import { decide } from "../../src/services/alerts/evaluator";
import type { Organization, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

const HOOK = "http://127.0.0.1:9/hook";

function recordsOf(project: Project, message: string, extra: Record<string, unknown> = {}): IngestRecord[] {
  const context = { projectId: project.id, envelopeHeaders: {}, receivedAt: Date.now(), clientIp: "198.51.100.4", userAgent: "test" };
  const payload = { event_id: randomUUID().replaceAll("-", ""), message, level: "error", timestamp: Date.now() / 1000, ...extra };
  return eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify(payload)) }, context).records;
}

const webhookRule = (conditions: AlertRuleFields["conditions"], frequency = 30): AlertRuleFields => ({
  name: "hook", actionMatch: "any", filterMatch: "all", conditions, filters: [], actions: [{ id: WEBHOOK_ACTION, url: HOOK, format: "json" }],
  environment: null, frequency,
});

export function alertsContract(engine: string, factory: EngineFactory): void {
  describe(`alerts contract: ${engine}`, () => {
    let storage: Storage;
    let organization: Organization;
    let project: Project;

    beforeEach(async () => {
      storage = await factory.create();
      organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "node" });
    });
    afterEach(() => factory.destroy(storage));

    /** One evaluation pass; the deliveries it queued, as [trigger, target]. */
    async function pass(): Promise<[string, string][]> {
      const queued: [string, string][] = [];
      await storage.alerts.feed.evaluate(500, async (entries) => {
        const outcome = await decide(storage, "https://periscope.example", entries, Date.now());
        for (const d of outcome.deliveries) queued.push([d.message.trigger, d.target]);
        return outcome;
      });
      return queued;
    }

    it("records each issue's change with its status before the batch", async () => {
      await storage.ingest.commit(recordsOf(project, "boom"));
      const seen: (string | null)[] = [];
      await storage.alerts.feed.evaluate(10, async (entries) => {
        seen.push(...entries.map((entry) => entry.prevStatus));
        return { fired: [], deliveries: [] };
      });
      const [result] = await storage.ingest.commit(recordsOf(project, "boom"));
      const issueId = (result as { issueId: string }).issueId;
      await storage.issues.setStatus(issueId, "resolved");
      await storage.ingest.commit([...recordsOf(project, "boom"), ...recordsOf(project, "boom")]);
      await storage.alerts.feed.evaluate(10, async (entries) => {
        seen.push(...entries.map((entry) => entry.prevStatus));
        assert.deepEqual(entries.map((entry) => entry.count), [1, 2]);
        return { fired: [], deliveries: [] };
      });
      assert.deepEqual(seen, [null, "unresolved", "resolved"]);
      assert.equal((await storage.issues.getById(issueId))?.status, "unresolved", "the regression reopened it");
      assert.equal(await storage.alerts.feed.evaluate(10, async () => ({ fired: [], deliveries: [] })), 0, "evaluated entries are not seen again");
    });

    it("fires a new-issue rule once, not again within the interval, and again on a regression", async () => {
      await storage.alerts.rules.create(project.id, webhookRule([{ id: FIRST_SEEN }, { id: REGRESSION }]), { signingSecret: "s", createdBy: null, now: Date.now() });
      const [result] = await storage.ingest.commit(recordsOf(project, "kaput"));
      assert.deepEqual(await pass(), [["New issue", HOOK]]);
      for (let i = 0; i < 5; i++) await storage.ingest.commit(recordsOf(project, "kaput"));
      assert.deepEqual(await pass(), []);
      await storage.issues.setStatus((result as { issueId: string }).issueId, "resolved");
      await storage.ingest.commit(recordsOf(project, "kaput"));
      assert.deepEqual(await pass(), [["Regression", HOOK]]);
    });

    it("fires a frequency rule exactly when the count passes N, and a muted rule never", async () => {
      const rule = await storage.alerts.rules.create(project.id, webhookRule([{ id: EVENT_FREQUENCY, value: 3, interval: "1h" }]), { signingSecret: "s", createdBy: null, now: Date.now() });
      const muted = await storage.alerts.rules.create(project.id, webhookRule([{ id: FIRST_SEEN }]), { signingSecret: "s", createdBy: null, now: Date.now() });
      await storage.alerts.rules.setMuted(project.id, muted.id, true, Date.now());
      const fired: number[] = [];
      for (let n = 1; n <= 6; n++) {
        await storage.ingest.commit(recordsOf(project, "often"));
        if ((await pass()).length > 0) fired.push(n);
      }
      assert.deepEqual(fired, [4], "fired at the 4th event (more than 3), then the interval holds it");
      assert.equal((await storage.alerts.outbox.listForRule(rule.id, 10)).length, 1);
      assert.equal((await storage.alerts.outbox.listForRule(muted.id, 10)).length, 0);
    });

    it("claims a delivery for one sender at a time, gives it back after the lease, and never after it was sent", async () => {
      const message = { kind: "test" as const, trigger: "Test", rule: null, organization: { slug: "acme" }, project: { id: project.id, slug: "web", name: "Web" }, issue: null, url: "https://x", firedAt: 1 };
      const base = { ruleId: null, projectId: project.id, issueId: null, kind: "test" as const, channel: "webhook" as const, target: HOOK, format: "json" as const, message };
      await storage.alerts.outbox.add([{ ...base, dedupeKey: "a" }, { ...base, dedupeKey: "a" }, { ...base, dedupeKey: "b" }], 1000);
      const first = await storage.alerts.outbox.claim(10, 1000, 500);
      assert.deepEqual(first.map((d) => [d.attempts, d.status]), [[1, "pending"], [1, "pending"]], "the same dedupe key twice is one row");
      assert.deepEqual(await storage.alerts.outbox.claim(10, 1200, 500), [], "held by the lease");
      await storage.alerts.outbox.markSent(first[0]!.id, 1300);
      await storage.alerts.outbox.markFailed(first[1]!.id, "the webhook answered HTTP 500", 5000);
      assert.deepEqual(await storage.alerts.outbox.claim(10, 2000, 500), [], "sent is done; failed waits for its retry time");
      const retried = await storage.alerts.outbox.claim(10, 5000, 500);
      assert.deepEqual(retried.map((d) => [d.id, d.attempts, d.lastError]), [[first[1]!.id, 2, "the webhook answered HTTP 500"]]);
      await storage.alerts.outbox.markFailed(retried[0]!.id, "gone", null);
      assert.deepEqual(await storage.alerts.outbox.claim(10, 99_999_999, 500), [], "given up on");
      assert.equal((await storage.alerts.outbox.get(retried[0]!.id))?.status, "failed");
    });

    it("keeps rules per project, validates nothing itself, and removes a rule's firing state with it", async () => {
      const rule = await storage.alerts.rules.create(project.id, webhookRule([{ id: FIRST_SEEN }]), { signingSecret: "secret", createdBy: null, now: 5 });
      const other = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: null });
      assert.equal(await storage.alerts.rules.get(other.id, rule.id), null, "not under another project");
      assert.deepEqual((await storage.alerts.rules.list(project.id)).map((r) => [r.name, r.signingSecret, r.muted]), [["hook", "secret", false]]);
      assert.equal(await storage.alerts.rules.remove(other.id, rule.id), false);
      assert.equal(await storage.alerts.rules.remove(project.id, rule.id), true);
      assert.deepEqual(await storage.alerts.rules.list(project.id), []);
    });
  });
}
