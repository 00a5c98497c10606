/**
 * `npx tsx bench/alert-eval.ts [-- --rules 20 --batches 400 --batch 20 --issues 50]`
 *
 * What alert rule evaluation costs per event, in-process on SQLite (issue 34): batches of error
 * events over `--issues` issues are committed as the writer would (each commit writes the alert
 * feed), then the feed is evaluated in passes as the background job does (services/alerts/jobs.ts),
 * against `--rules` rules of bench/alert-rules.ts and against none. Prints CPU (user + system) per
 * feed entry and per event for both; webhooks go to a receiver that is never called during the
 * measurement (only the outbox rows are written).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { eventItem } from "../src/items/event";
import type { IngestRecord, Project } from "../src/model";
import { decide } from "../src/services/alerts/evaluator";
import { createSqliteStorage } from "../src/storage/sqlite";
import type { Storage } from "../src/storage/types";
import { benchRule } from "./alert-rules";

const { values: args } = parseArgs({
  options: {
    rules: { type: "string", default: "20" },
    batches: { type: "string", default: "400" },
    batch: { type: "string", default: "20" },
    issues: { type: "string", default: "50" },
  },
});
const [rules, batches, batchSize, issues] = [args.rules, args.batches, args.batch, args.issues].map(Number) as [number, number, number, number];

function batchOf(project: Project, n: number): IngestRecord[] {
  const process = eventItem(1_000_000).process.bind(eventItem(1_000_000));
  return Array.from({ length: batchSize }, (_, i) => {
    const issue = (n * batchSize + i) % issues;
    const payload = {
      event_id: randomUUID().replaceAll("-", ""), message: `bench issue ${issue}`, fingerprint: [`issue-${issue}`], level: "error",
      environment: "production", user: { id: `user-${i % 7}` }, tags: { customer: `c${i % 3}` }, timestamp: Date.now() / 1000,
    };
    const context = { projectId: project.id, envelopeHeaders: {}, receivedAt: Date.now(), clientIp: "198.51.100.4", userAgent: "bench" };
    return process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify(payload)) }, context).records;
  }).flat();
}

async function measure(storage: Storage, project: Project, ruleCount: number): Promise<{ entries: number; events: number; cpuUs: number }> {
  for (const rule of await storage.alerts.rules.list(project.id)) await storage.alerts.rules.remove(project.id, rule.id);
  for (let i = 0; i < ruleCount; i++) await storage.alerts.rules.create(project.id, benchRule(i, "http://127.0.0.1:9/hook"), { signingSecret: "bench", createdBy: null, now: Date.now() });
  for (let n = 0; n < batches; n++) await storage.ingest.commit(batchOf(project, n));
  let entries = 0;
  let events = 0;
  const started = process.cpuUsage();
  for (;;) {
    const looked = await storage.alerts.feed.evaluate(500, async (pass) => {
      for (const entry of pass) events += entry.count;
      return decide(storage, "http://periscope.bench", pass, Date.now());
    });
    if (!looked) break;
    entries += looked;
  }
  const used = process.cpuUsage(started);
  return { entries, events, cpuUs: used.user + used.system };
}

const dir = mkdtempSync(path.join(tmpdir(), "periscope-alert-eval-"));
const storage = createSqliteStorage(dir, { topology: { engine: "sqlite", commits: "inline" } });
try {
  const organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  const project = await storage.projects.create({ organizationId: organization.id, slug: "bench", name: "Bench", platform: null });
  // Alternated, twice: the second round sees issues that exist (no new-issue firings), as a steady state does.
  for (const count of [0, rules, rules, 0]) {
    const { entries, events, cpuUs } = await measure(storage, project, count);
    console.log(`${count} rules: ${entries} feed entries (${events} events) evaluated in ${(cpuUs / 1000).toFixed(1)} ms CPU: ${(cpuUs / entries).toFixed(1)} µs per entry, ${(cpuUs / events).toFixed(2)} µs per event`);
  }
} finally {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
