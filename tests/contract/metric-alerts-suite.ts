/**
 * Metric alert storage on each engine (issue 34 item 2): a pass's state change and its outbox rows
 * are written together, once; a change decided from a rule that was edited meanwhile writes neither.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { AlertMessage, MetricRuleFields } from "../../src/model";
import type { MetricOutcome, Organization, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

const FIELDS: MetricRuleFields = {
  name: "errors", aggregate: "count()", timeWindow: 5, thresholdType: 0, resolveThreshold: null, environment: null,
  triggers: [{ label: "critical", alertThreshold: 10, actions: [{ type: "webhook", targetType: "specific", targetIdentifier: "https://hooks.example/m", format: "json" }] }],
};

export function metricAlertsContract(engine: string, factory: EngineFactory): void {
  describe(`metric alerts contract: ${engine}`, () => {
    let storage: Storage;
    let organization: Organization;
    let project: Project;

    beforeEach(async () => {
      storage = await factory.create();
      organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "node" });
    });
    afterEach(() => factory.destroy(storage));

    const message = { kind: "metric", trigger: "Critical", rule: null, organization: { slug: "acme" }, project: { id: "1", slug: "web", name: "Web" }, issue: null, url: "u", firedAt: 1 } satisfies AlertMessage;
    /** A pass that moves every rule it reads to critical with one webhook, running `meanwhile` between reading and writing. */
    const toCritical = (at: number, meanwhile: () => Promise<void> = async () => undefined) =>
      storage.alerts.metricRules.evaluate(async (rules): Promise<MetricOutcome> => {
        await meanwhile();
        return {
          changes: rules.map((rule) => ({ ruleId: rule.id, state: "critical" as const, fromSeq: rule.stateSeq, value: 12, at })),
          evaluated: [],
          deliveries: rules.map((rule) => ({
            ruleId: null, metricRuleId: rule.id, projectId: project.id, issueId: null, kind: "metric" as const, channel: "webhook" as const,
            target: "https://hooks.example/m", format: "json" as const, message, dedupeKey: `metric:${rule.id}:${rule.stateSeq + 1}:webhook:https://hooks.example/m`,
          })),
        };
      });

    it("writes a change with its message; a later change is a row of its own", async () => {
      const rule = await storage.alerts.metricRules.create(organization.id, project.id, FIELDS, { signingSecret: "s", createdBy: null, now: 1000 });
      assert.equal(await toCritical(2000), 1);
      const after = await storage.alerts.metricRules.get(organization.id, rule.id);
      assert.deepStrictEqual([after?.state, after?.stateSeq, after?.stateValue, after?.stateChanged], ["critical", 1, 12, 2000]);
      const log = await storage.alerts.metricRules.listDeliveries(rule.id, 10);
      assert.deepStrictEqual(log.map((d) => [d.kind, d.metricRuleId, d.ruleId, d.target, d.status]), [["metric", rule.id, null, "https://hooks.example/m", "pending"]]);
      // A second pass deciding from the new seq is a new change (seq 2): one more row, never a repeat of the first.
      await toCritical(3000);
      assert.equal((await storage.alerts.metricRules.listDeliveries(rule.id, 10)).length, 2);
    });

    it("drops a change and its message when the rule was edited during the pass", async () => {
      const rule = await storage.alerts.metricRules.create(organization.id, project.id, FIELDS, { signingSecret: "s", createdBy: null, now: 1000 });
      await toCritical(2000, async () => {
        await storage.alerts.metricRules.update(organization.id, rule.id, { ...FIELDS, name: "edited" }, 1500);
      });
      const after = await storage.alerts.metricRules.get(organization.id, rule.id);
      assert.deepStrictEqual([after?.name, after?.state, after?.stateSeq], ["edited", "ok", 1]);
      assert.deepStrictEqual(await storage.alerts.metricRules.listDeliveries(rule.id, 10), []);
    });
  });
}
