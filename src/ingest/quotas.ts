/**
 * Quotas and spike protection on the ingest path (issue 33 item 4). Before a request's items are
 * processed, each item's data categories are charged to every rule of the project's plan
 * (src/ingest/quota-plan.ts) in ONE round trip to the shared counters (storage.quotaCounts: an
 * atomic conditional upsert on PostgreSQL, memory on SQLite). Items of a category some rule refuses
 * are dropped and counted `rate_limited` with the rule's reason; the others go on, as Relay does.
 * The answer names exactly the refused categories and their scope in `X-Sentry-Rate-Limits`: 429
 * when nothing chargeable is left, else 200 with the header, which SDKs read on every answer.
 */
import type { IngestRecord } from "../model";
import { quotaWindowAt, type QuotaCategory } from "../model";
import type { QuotaCounter } from "../storage/types";
import type { EnvelopeItem } from "./envelope";
import type { QuotaPlan, QuotaRule } from "./quota-plan";
import type { IngestJob } from "./sink";

/** What one item costs: its quota categories with amounts, and the outcomes that count it when dropped. */
interface Charge {
  quota: [QuotaCategory, number][];
  outcomes: [string, number][];
}

const countOf = (item: EnvelopeItem) => {
  const count = item.headers.item_count;
  return typeof count === "number" && Number.isInteger(count) && count > 0 ? count : 1;
};

/**
 * Quota categories per item type (docs/protocol.md §6.2); types not listed (client reports, and
 * types no quota category covers) are never limited. Sentry's error quota covers the error family:
 * events (`error`) and security reports (`security`).
 */
function chargeOf(item: EnvelopeItem): Charge | null {
  switch (item.headers.type) {
    case "event":
      return { quota: [["error", 1]], outcomes: [["error", 1]] };
    case "security":
    case "raw_security":
    case "nel":
      return { quota: [["error", 1]], outcomes: [["security", 1]] };
    case "transaction":
      return { quota: [["transaction", 1]], outcomes: [["transaction", 1]] };
    case "span":
      return { quota: [["span", countOf(item)]], outcomes: [["span", countOf(item)]] };
    case "session":
    case "sessions":
      return { quota: [["session", 1]], outcomes: [["session", 1]] };
    case "attachment": {
      const bytes = Math.max(1, item.payload.length);
      return { quota: [["attachment", bytes]], outcomes: [["attachment", bytes], ["attachment_item", 1]] };
    }
    case "log":
    case "otel_log": {
      const bytes = Math.max(1, item.payload.length);
      return { quota: [["log_item", countOf(item)], ["log_byte", bytes]], outcomes: [["log_item", countOf(item)], ["log_byte", bytes]] };
    }
    default:
      return null;
  }
}

/** The categories `X-Sentry-Rate-Limits` names for a refused quota category (Sentry's error quota names the error family). */
const HEADER_CATEGORIES: Record<QuotaCategory, string> = {
  error: "default;error;security",
  transaction: "transaction",
  span: "span",
  session: "session",
  attachment: "attachment",
  log_item: "log_item",
  log_byte: "log_byte",
};

/** The outcome of charging a request: what was dropped, and how the answer must say so. */
export interface QuotaVerdict {
  /** The job with the refused items taken out (the same job when none was). */
  job: IngestJob;
  /** `rate_limited` outcomes of the dropped items. */
  outcomes: IngestRecord[];
  /** The `X-Sentry-Rate-Limits` value. */
  rateLimits: string;
  /** Seconds until the latest refused window ends. */
  retryAfter: number;
  /** Nothing chargeable was left: the answer is 429 (a client report beside the dropped items is still taken). */
  refused: boolean;
}

/**
 * Rules this process has seen refuse, until their window ends: a flood past a quota is then refused
 * without a round trip, as Relay caches the rate limits it hears (another process learns it on its
 * own first refusal). Keyed by the limit too, so raising a quota takes effect at once; one map per
 * counter store (one per database).
 */
const exhaustedBy = new WeakMap<QuotaCounter, Map<string, number>>();
const EXHAUSTED_MAX = 10_000;
const exhaustedKey = (rule: QuotaRule) => `${rule.counter}:${rule.limit}`;

/** Charges the job to the plan's rules; null when everything in it is within its quotas (the common case). */
export async function enforceQuotas(plan: QuotaPlan, job: IngestJob, counter: QuotaCounter): Promise<QuotaVerdict | null> {
  const context = job.context;
  let exhausted = exhaustedBy.get(counter);
  if (!exhausted) exhaustedBy.set(counter, (exhausted = new Map()));
  const charges: (Charge | null)[] = job.kind === "store" ? [{ quota: [["error", 1]], outcomes: [["error", 1]] }] : job.items.map(chargeOf);
  const totals = new Map<QuotaCategory, number>();
  for (const charge of charges) {
    if (charge) for (const [category, amount] of charge.quota) totals.set(category, (totals.get(category) ?? 0) + amount);
  }
  if (totals.size === 0) return null;

  const refusedBy = new Map<QuotaCategory, QuotaRule[]>();
  const refuse = (rule: QuotaRule) => refusedBy.set(rule.category, [...(refusedBy.get(rule.category) ?? []), rule]);
  const asked: { rule: QuotaRule; name: string; windowStart: number; amount: number; limit: number }[] = [];
  for (const rule of plan.rules) {
    const amount = totals.get(rule.category);
    if (amount === undefined) continue;
    const windowStart = quotaWindowAt(rule.window, context.receivedAt).start;
    if (exhausted.get(exhaustedKey(rule)) === windowStart) refuse(rule);
    else asked.push({ rule, name: rule.counter, windowStart, amount, limit: rule.limit });
  }
  const added = asked.length > 0 ? await counter.tryAdd(asked) : [];
  asked.forEach((entry, index) => {
    if (added[index]) return;
    refuse(entry.rule);
    if (exhausted.size >= EXHAUSTED_MAX) exhausted.clear();
    exhausted.set(exhaustedKey(entry.rule), entry.windowStart);
  });
  if (refusedBy.size === 0) return null;
  // A category refused by one rule was still counted by the others that took it: give that back.
  const giveBack = asked.filter((entry, index) => added[index] && refusedBy.has(entry.rule.category));
  if (giveBack.length > 0) await counter.release(giveBack);

  const outcomes = new Map<string, { reason: string; quantity: number }>();
  const kept: EnvelopeItem[] = [];
  let chargeableKept = 0;
  // An envelope's attachments belong to its event: dropped with it, as Relay does.
  const eventRefusedBy = job.kind === "envelope" && job.items.some((item) => item.headers.type === "event") ? refusedBy.get("error")?.[0] : undefined;
  charges.forEach((charge, index) => {
    const limitedBy =
      charge?.quota.map(([category]) => refusedBy.get(category)?.[0]).find((rule) => rule !== undefined) ??
      (eventRefusedBy && job.kind === "envelope" && job.items[index]!.headers.type === "attachment" ? eventRefusedBy : undefined);
    if (charge && limitedBy) {
      for (const [category, quantity] of charge.outcomes) {
        const key = `${category}\n${limitedBy.reason}`;
        const known = outcomes.get(key);
        if (known) known.quantity += quantity;
        else outcomes.set(key, { reason: limitedBy.reason, quantity });
      }
      return;
    }
    if (job.kind === "envelope") kept.push(job.items[index]!);
    if (charge) chargeableKept++;
  });

  let retryAfter = 1;
  const limits: string[] = [];
  const nowSeconds = context.receivedAt / 1000;
  for (const rules of refusedBy.values()) {
    for (const rule of rules) {
      const seconds = Math.max(1, Math.ceil(quotaWindowAt(rule.window, context.receivedAt).end - nowSeconds));
      retryAfter = Math.max(retryAfter, seconds);
      limits.push(`${seconds}:${HEADER_CATEGORIES[rule.category]}:${rule.scope}:${rule.reason}`);
    }
  }
  const records: IngestRecord[] = [];
  for (const [key, { reason, quantity }] of outcomes) {
    records.push({ kind: "outcome", projectId: context.projectId, outcome: "rate_limited", category: key.slice(0, key.indexOf("\n")), reason, quantity, timestamp: context.receivedAt });
  }
  const rest: IngestJob = job.kind === "envelope" ? { kind: "envelope", items: kept, context } : job;
  return { job: rest, outcomes: records, rateLimits: limits.join(", "), retryAfter, refused: chargeableKept === 0 };
}
