/**
 * Quotas (issue 33 item 4): the quota settings per organisation and project, the shared counters
 * (an addition past the limit is refused and leaves the count as it was; concurrent additions never
 * take a counter past its limit), and the enforcement over real envelopes with chosen receive times:
 * which items are dropped, the outcomes, the `X-Sentry-Rate-Limits` value, and the windows rolling
 * over (minute, hour, day, calendar month). Called once per engine (tests/unit/storage-<engine>.test.ts).
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { compileQuotaPlan } from "../../src/ingest/quota-plan";
import { enforceQuotas } from "../../src/ingest/quotas";
import type { IngestJob } from "../../src/ingest/sink";
import type { Organization, Project, Quota, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

/** An envelope of these item types (event, session, attachment, log, client_report) as an SDK frames it. */
function job(project: Project, receivedAt: number, types: string[]): IngestJob {
  const lines = ['{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}'];
  for (const type of types) {
    const payload =
      type === "event" ? '{"message":"hello"}' : type === "session" ? '{"sid":"a","status":"ok","started":"2026-01-01T00:00:00Z"}' : type === "attachment" ? "0123456789" : type === "log" ? '{"items":[{},{}]}' : '{"discarded_events":[]}';
    const headers: Record<string, unknown> = { type, length: Buffer.byteLength(payload) };
    if (type === "log") headers.item_count = 2;
    lines.push(JSON.stringify(headers), payload);
  }
  const envelope = parseEnvelope(Buffer.from(lines.join("\n") + "\n"));
  return { kind: "envelope", items: envelope.items, context: { projectId: project.id, envelopeHeaders: envelope.headers, receivedAt, clientIp: undefined, userAgent: undefined } };
}

const typesOf = (result: IngestJob) => (result.kind === "envelope" ? result.items.map((item) => item.headers.type) : ["store"]);

export function quotasContract(engine: string, factory: EngineFactory): void {
  describe(`quotas contract: ${engine}`, () => {
    let storage: Storage;
    let organization: Organization;
    let project: Project;
    let other: Project;

    beforeEach(async () => {
      storage = await factory.create();
      organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "javascript" });
      other = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: null });
    });
    afterEach(async () => factory.destroy(storage));

    const planOf = async (of: Project) => compileQuotaPlan(of, await storage.quotas.forProject(organization.id, of.id), null);

    it("stores quotas per organisation and project, replaces them and tells key-change listeners", async () => {
      let calls = 0;
      storage.onKeysChanged(() => calls++);
      const own: Quota[] = [
        { category: "session", window: "day", limit: 100 },
        { category: "error", window: "month", limit: 5000 },
        { category: "error", window: "minute", limit: 10 },
      ];
      await storage.quotas.replace(organization.id, project.id, own);
      await storage.quotas.replace(organization.id, null, [{ category: "transaction", window: "hour", limit: 7 }]);
      // Sorted by category, then window.
      assert.deepEqual(await storage.quotas.list(organization.id, project.id), [own[2], own[1], own[0]]);
      assert.deepEqual(await storage.quotas.list(organization.id, null), [{ category: "transaction", window: "hour", limit: 7 }]);
      assert.deepEqual(await storage.quotas.forProject(organization.id, other.id), { project: [], organization: [{ category: "transaction", window: "hour", limit: 7 }] });
      await storage.quotas.replace(organization.id, project.id, [{ category: "span", window: "day", limit: 0 }]);
      assert.deepEqual(await storage.quotas.forProject(organization.id, project.id), {
        project: [{ category: "span", window: "day", limit: 0 }],
        organization: [{ category: "transaction", window: "hour", limit: 7 }],
      });
      await storage.quotas.replace(organization.id, project.id, []);
      assert.deepEqual(await storage.quotas.list(organization.id, project.id), []);
      assert.equal(await planOf(other).then((plan) => plan?.rules.length), 1);
      for (let waited = 0; calls < 4 && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.ok(calls >= 4, `${calls} notifications`);
    });

    it("adds to a counter only within its limit, per window", async () => {
      const c = storage.quotaCounts;
      assert.deepEqual(await c.tryAdd([{ name: "x", windowStart: 60, amount: 3, limit: 5 }]), [true]);
      assert.deepEqual(await c.tryAdd([{ name: "x", windowStart: 60, amount: 3, limit: 5 }, { name: "y", windowStart: 60, amount: 6, limit: 5 }]), [false, false]);
      assert.deepEqual(await c.current([{ name: "x", windowStart: 60 }, { name: "y", windowStart: 60 }]), [3, 0]);
      assert.deepEqual(await c.tryAdd([{ name: "x", windowStart: 60, amount: 2, limit: 5 }]), [true]);
      assert.deepEqual(await c.tryAdd([{ name: "x", windowStart: 60, amount: 1, limit: 5 }]), [false]);
      await c.release([{ name: "x", windowStart: 60, amount: 2 }]);
      assert.deepEqual(await c.current([{ name: "x", windowStart: 60 }]), [3]);
      // A new window starts from zero.
      assert.deepEqual(await c.tryAdd([{ name: "x", windowStart: 120, amount: 5, limit: 5 }]), [true]);
      assert.deepEqual(await c.current([{ name: "x", windowStart: 120 }]), [5]);
      // 40 concurrent additions of 1 against a limit of 25: exactly 25 succeed.
      const results = await Promise.all(Array.from({ length: 40 }, () => c.tryAdd([{ name: "z", windowStart: 60, amount: 1, limit: 25 }])));
      assert.equal(results.filter(([added]) => added).length, 25);
      assert.deepEqual(await c.current([{ name: "z", windowStart: 60 }]), [25]);
      // Concurrent requests of 4 against 10 (coalesced on PostgreSQL, then retried one by one): two fit, 8 counted.
      const fours = await Promise.all(Array.from({ length: 5 }, () => c.tryAdd([{ name: "w", windowStart: 60, amount: 4, limit: 10 }, { name: "v", windowStart: 60, amount: 1, limit: 100 }])));
      assert.deepEqual([fours.filter(([added]) => added).length, fours.filter(([, added]) => added).length], [2, 5]);
      assert.deepEqual(await c.current([{ name: "w", windowStart: 60 }, { name: "v", windowStart: 60 }]), [8, 5]);
    });

    it("drops only the limited category's items, counts them, and names the limit", async () => {
      await storage.quotas.replace(organization.id, project.id, [{ category: "error", window: "hour", limit: 2 }]);
      const plan = (await planOf(project))!;
      const at = Date.UTC(2026, 10, 27, 14, 10, 0);
      for (let i = 0; i < 2; i++) assert.equal(await enforceQuotas(plan, job(project, at + i, ["event", "session"]), storage.quotaCounts), null);
      const verdict = await enforceQuotas(plan, job(project, at + 2, ["event", "session", "client_report"]), storage.quotaCounts);
      assert.ok(verdict);
      assert.deepEqual(typesOf(verdict.job), ["session", "client_report"]);
      assert.equal(verdict.refused, false);
      // 14:10:00 → the hour ends at 15:00:00: 3000 s.
      assert.equal(verdict.rateLimits, "3000:default;error;security:project:project_quota");
      assert.equal(verdict.retryAfter, 3000);
      assert.deepEqual(
        verdict.outcomes.map((o) => o.kind === "outcome" && [o.outcome, o.category, o.reason, o.quantity, o.projectId]),
        [["rate_limited", "error", "project_quota", 1, project.id]],
      );
      // Only an event (and a client report): refused as a whole.
      const alone = await enforceQuotas(plan, job(project, at + 3, ["event", "client_report"]), storage.quotaCounts);
      assert.deepEqual([alone?.refused, alone && typesOf(alone.job)], [true, ["client_report"]]);
      // An event's attachments are dropped with it.
      const withAttachment = await enforceQuotas(plan, job(project, at + 4, ["event", "attachment", "session"]), storage.quotaCounts);
      assert.deepEqual(withAttachment && typesOf(withAttachment.job), ["session"]);
      assert.deepEqual(
        withAttachment?.outcomes.map((o) => o.kind === "outcome" && [o.category, o.reason, o.quantity]),
        [["error", "project_quota", 1], ["attachment", "project_quota", 10], ["attachment_item", "project_quota", 1]],
      );
      // The other project has no quota of its own.
      assert.equal(await planOf(other), null);
      // The next hour starts afresh.
      assert.equal(await enforceQuotas(plan, job(project, Date.UTC(2026, 10, 27, 15, 0, 0), ["event"]), storage.quotaCounts), null);
    });

    it("counts an organisation's quota across its projects, and bytes for attachments and logs", async () => {
      await storage.quotas.replace(organization.id, null, [
        { category: "error", window: "day", limit: 3 },
        { category: "attachment", window: "day", limit: 25 },
        { category: "log_byte", window: "day", limit: 1000 },
      ]);
      const [planA, planB] = [(await planOf(project))!, (await planOf(other))!];
      const at = Date.UTC(2026, 10, 27, 23, 59, 0);
      const statuses: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        for (const [of, plan] of [[project, planA], [other, planB]] as const) {
          statuses.push((await enforceQuotas(plan, job(of, at + i, ["event"]), storage.quotaCounts))?.rateLimits ?? null);
        }
      }
      assert.deepEqual(statuses, [null, null, null, "60:default;error;security:organization:org_quota", "60:default;error;security:organization:org_quota", "60:default;error;security:organization:org_quota"]);
      // 10-byte attachments against 25 bytes: two fit, the third does not; logs are far from their limit.
      const attachments = [];
      for (let i = 0; i < 3; i++) attachments.push(await enforceQuotas(planA, job(project, at + 10, ["attachment", "log"]), storage.quotaCounts));
      assert.deepEqual(attachments.map((v) => v?.rateLimits ?? null), [null, null, "60:attachment:organization:org_quota"]);
      assert.deepEqual(typesOf(attachments[2]!.job), ["log"]);
      assert.deepEqual(
        attachments[2]!.outcomes.map((o) => o.kind === "outcome" && [o.category, o.quantity]),
        [["attachment", 10], ["attachment_item", 1]],
      );
      // Midnight: a new day for the organisation's quota.
      assert.equal(await enforceQuotas(planB, job(other, Date.UTC(2026, 10, 28), ["event"]), storage.quotaCounts), null);
    });

    it("applies the tightest of several quotas and gives back what the others counted", async () => {
      await storage.quotas.replace(organization.id, project.id, [
        { category: "error", window: "minute", limit: 1 },
        { category: "error", window: "month", limit: 3 },
      ]);
      const plan = (await planOf(project))!;
      const at = Date.UTC(2026, 1, 28, 23, 56, 30);
      assert.equal(await enforceQuotas(plan, job(project, at, ["event"]), storage.quotaCounts), null);
      const second = await enforceQuotas(plan, job(project, at + 1000, ["event"]), storage.quotaCounts);
      assert.equal(second?.rateLimits, "29:default;error;security:project:project_quota");
      // The minute refused it, so the month's counter was given its 1 back: two more fit next minutes.
      assert.equal(await enforceQuotas(plan, job(project, at + 60_000, ["event"]), storage.quotaCounts), null);
      assert.equal(await enforceQuotas(plan, job(project, at + 120_000, ["event"]), storage.quotaCounts), null);
      // At 23:59:40 on 28 February the minute is new but the month is full, for 20 s more.
      const full = await enforceQuotas(plan, job(project, Date.UTC(2026, 1, 28, 23, 59, 40), ["event"]), storage.quotaCounts);
      assert.match(full?.rateLimits ?? "", /^20:default;error;security:project:project_quota$/);
      assert.equal(await enforceQuotas(plan, job(project, Date.UTC(2026, 2, 1, 0, 0, 30), ["event"]), storage.quotaCounts), null);
    });

    it("refuses every item of a category whose limit is 0", async () => {
      await storage.quotas.replace(organization.id, project.id, [{ category: "session", window: "day", limit: 0 }]);
      const verdict = await enforceQuotas((await planOf(project))!, job(project, Date.UTC(2026, 0, 1, 12), ["session"]), storage.quotaCounts);
      assert.deepEqual([verdict?.refused, verdict?.rateLimits], [true, "43200:session:project:project_quota"]);
    });
  });
}
