/**
 * Unit-test helpers for the item modules: captured fixture envelopes parsed with the real parser,
 * an item context received just after the envelope was sent, and payload edits for negative cases.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnvelope, type Envelope, type EnvelopeItem } from "../../src/ingest/envelope";
import { createItemRegistry } from "../../src/items";
import { readSpanContainer } from "../../src/items/span";
import type { ItemContext, ItemResult } from "../../src/items/types";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");
const registry = createItemRegistry({ maxEventBytes: 1024 * 1024 });

export const PROJECT_ID = "7";

export function fixture(name: string): Envelope {
  return parseEnvelope(readFileSync(path.join(fixtures, `${name}.envelope`)));
}

/** The only item of a fixture, or the first. */
export function firstItem(name: string): EnvelopeItem {
  const item = fixture(name).items[0];
  if (!item) throw new Error(`${name} has no items`);
  return item;
}

/** Received 40 ms after `sent_at` unless told otherwise. */
export function contextFor(envelope: Envelope, receivedAt?: number): ItemContext {
  const sentAt = typeof envelope.headers.sent_at === "string" ? Date.parse(envelope.headers.sent_at) : undefined;
  const at = receivedAt ?? (sentAt === undefined ? undefined : sentAt + 40);
  if (at === undefined) throw new Error("the envelope has no sent_at: pass receivedAt");
  return { projectId: PROJECT_ID, envelopeHeaders: envelope.headers, receivedAt: at, clientIp: "203.0.113.9", userAgent: "test-agent" };
}

/** The item's records as a store commits them: span containers read (src/items/span-containers.ts). */
export function process(item: EnvelopeItem, context: ItemContext): ItemResult {
  const result = registry.processorFor(item.headers.type).process(item, context);
  const records = result.records.flatMap((record) => (record.kind === "span_container" ? readSpanContainer(record) : [record]));
  return { ...result, records };
}

export function payloadOf(item: EnvelopeItem): Record<string, unknown> {
  return JSON.parse(item.payload.toString("utf8")) as Record<string, unknown>;
}

/** The same item with its JSON payload changed by `edit` (which may mutate and return it). */
export function edited(item: EnvelopeItem, edit: (payload: Record<string, unknown>) => unknown): EnvelopeItem {
  const payload = payloadOf(item);
  const next = edit(payload) ?? payload;
  return { headers: item.headers, payload: Buffer.from(typeof next === "string" ? next : JSON.stringify(next)) };
}

export const invalid = (category: string, reason: string, timestamp: number, quantity = 1) => ({
  kind: "outcome", projectId: PROJECT_ID, outcome: "invalid", category, reason, quantity, timestamp,
});

export const accepted = (category: string, timestamp: number, quantity = 1) => ({
  kind: "outcome", projectId: PROJECT_ID, outcome: "accepted", category, reason: null, quantity, timestamp,
});
