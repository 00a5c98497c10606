/**
 * `npm run bench -- --alert-rules 0,20`: issue alert rules put on the benchmark project before any
 * traffic, so one run measures ingest with N active rules against none (issue 34). Of every ten,
 * one fires on each new issue (a webhook to a receiver in this process that answers 200 at once);
 * the others look at every feed entry and do not fire (filters on level, environment, tags,
 * frequency thresholds out of reach), which is the evaluation cost a busy project pays.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../src/config";
import {
  EVENT_FREQUENCY, FIRST_SEEN, LEVEL_FILTER, REGRESSION, TAGGED_EVENT_FILTER, UNIQUE_USER_FREQUENCY, WEBHOOK_ACTION, type AlertRuleFields,
} from "../src/model";
import { createStorage } from "../src/storage";

export const MAX_ALERT_RULES = 100;

export function benchRule(index: number, hook: string): AlertRuleFields {
  const base: Omit<AlertRuleFields, "name" | "conditions" | "filters"> = { actionMatch: "any", filterMatch: "all", environment: null, frequency: 30, actions: [{ id: WEBHOOK_ACTION, url: hook, format: "json" }] };
  switch (index % 10) {
    case 0:
      return { ...base, name: `bench ${index}: new issues`, conditions: [{ id: FIRST_SEEN }, { id: REGRESSION }], filters: [] };
    case 1:
    case 2:
      return { ...base, name: `bench ${index}: busy issues`, conditions: [{ id: EVENT_FREQUENCY, value: 1_000_000, interval: "1h" }], filters: [] };
    case 3:
      return { ...base, name: `bench ${index}: many users`, conditions: [{ id: UNIQUE_USER_FREQUENCY, value: 1_000_000, interval: "1d" }], filters: [] };
    case 4:
    case 5:
      return { ...base, name: `bench ${index}: fatal only`, conditions: [{ id: FIRST_SEEN }], filters: [{ id: LEVEL_FILTER, match: "gte", level: "fatal" }] };
    case 6:
    case 7:
      return { ...base, name: `bench ${index}: tagged`, conditions: [{ id: FIRST_SEEN }, { id: REGRESSION }], filters: [{ id: TAGGED_EVENT_FILTER, key: "customer", match: "eq", value: "nobody" }] };
    default:
      return { ...base, name: `bench ${index}: staging`, environment: "staging-nowhere", conditions: [{ id: FIRST_SEEN }], filters: [] };
  }
}

/** A webhook receiver that answers 200 to everything and counts. */
export async function startHookSink(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Replaces the project's rules (the default rule included) with `count` bench rules, written before its first event. */
export async function putAlertRules(env: Record<string, string>, projectId: string, count: number, hook: string): Promise<void> {
  const storage = await createStorage(loadConfig({ ...process.env, ...env }));
  try {
    for (const rule of await storage.alerts.rules.list(projectId)) await storage.alerts.rules.remove(projectId, rule.id);
    for (let i = 0; i < count; i++) await storage.alerts.rules.create(projectId, benchRule(i, hook), { signingSecret: "bench", createdBy: null, now: Date.now() });
  } finally {
    await storage.close();
  }
}
