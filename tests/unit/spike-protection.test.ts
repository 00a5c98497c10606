/**
 * Spike protection's rule (src/ingest/spike-protection.ts, docs/security.md): ten times the
 * project's average accepted items per hour over the 168 hours before the current hour, never below
 * the floor, per category; read from real outcome counters (SQLite), the current hour and other
 * projects and outcomes left out.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { compileQuotaPlan } from "../../src/ingest/quota-plan";
import { SpikeLimitCache, spikeLimitsFrom } from "../../src/ingest/spike-protection";
import type { IngestRecord } from "../../src/model";
import { createSqliteStorage } from "../../src/storage/sqlite";

const HOUR = 3_600_000;

test("the limit is ten times the last week's hourly average, at least the floor", () => {
  assert.deepEqual(spikeLimitsFrom({}, 1000), { error: 1000, transaction: 1000, span: 1000, log_item: 1000 });
  // 168 000 errors in a week: 1000 an hour on average, 10 000 allowed per hour.
  assert.deepEqual(spikeLimitsFrom({ error: 168_000, span: 1_680 }, 50), { error: 10_000, transaction: 50, span: 100, log_item: 50 });
  // Rounded up: 1 error in a week still allows 1 per hour.
  assert.equal(spikeLimitsFrom({ error: 1 }, 1).error, 1);
});

test("reads accepted outcomes of the project's previous 168 hours from storage", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-spike-"));
  const storage = createSqliteStorage(dir, { topology: { engine: "sqlite", commits: "inline" } });
  try {
    const organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
    const project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: null });
    const other = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: null });
    const now = Date.UTC(2026, 10, 27, 14, 30);
    const hour = Date.UTC(2026, 10, 27, 14);
    const at = (projectId: string, outcome: "accepted" | "rate_limited", category: string, quantity: number, timestamp: number): IngestRecord => ({
      kind: "outcome", projectId, outcome, category, reason: outcome === "accepted" ? null : "project_quota", quantity, timestamp,
    });
    await storage.ingest.commit([
      at(project.id, "accepted", "error", 16_800, hour - 2 * HOUR),
      at(project.id, "accepted", "default", 8_400, hour - 100 * HOUR),
      at(project.id, "accepted", "transaction", 33_600, hour - 168 * HOUR),
      // Left out: older than 168 hours, the current hour, another outcome, another project.
      at(project.id, "accepted", "transaction", 1_000_000, hour - 169 * HOUR),
      at(project.id, "accepted", "error", 1_000_000, hour + 10 * 60_000),
      at(project.id, "rate_limited", "error", 1_000_000, hour - HOUR),
      at(other.id, "accepted", "error", 1_000_000, hour - HOUR),
    ]);
    const limits = await new SpikeLimitCache(storage, 100).limitsFor(project.id, now);
    // errors: (16 800 + 8 400) / 168 × 10 = 1500; transactions 33 600 / 168 × 10 = 2000.
    assert.deepEqual(limits, { error: 1500, transaction: 2000, span: 100, log_item: 100 });
    const plan = compileQuotaPlan(project, { project: [], organization: [] }, limits);
    assert.deepEqual(plan?.rules.map((rule) => [rule.category, rule.window, rule.limit, rule.reason, rule.counter]), [
      ["error", "hour", 1500, "spike_protection", `s${project.id}:error:hour`],
      ["transaction", "hour", 2000, "spike_protection", `s${project.id}:transaction:hour`],
      ["span", "hour", 100, "spike_protection", `s${project.id}:span:hour`],
      ["log_item", "hour", 100, "spike_protection", `s${project.id}:log_item:hour`],
    ]);
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
