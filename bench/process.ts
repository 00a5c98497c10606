/**
 * `npm run bench:process [-- --requests 4000 --rounds 7]`
 *
 * What the thread that serves HTTP spends per request after the body is read, by kind of request of
 * the realistic mix (bench/mix.ts): framing the envelope and processing its items (JSON parsing,
 * normalising, grouping: src/ingest/pipeline.ts), then the hand-off to the SQLite commit thread
 * (commit-records.ts, `postMessage`, and the receiving end's deserialising, which the commit thread
 * pays). One thread, no HTTP, no storage: for changes to that path, where the HTTP benchmark is too
 * noisy to see a few per cent. Prints the median of `rounds` rounds in µs per request, and the
 * spread (slowest round ÷ fastest).
 */
import { parseArgs } from "node:util";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { parseEnvelope } from "../src/ingest/envelope";
import { processEnvelope } from "../src/ingest/pipeline";
import { createItemRegistry } from "../src/items";
import { handOver } from "../src/storage/sqlite/commit-records";
import type { IngestRecord } from "../src/model";
import { REQUEST_KINDS, renderBody, templatesOfKind } from "./kinds";
import { median } from "./load";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "4000" },
    rounds: { type: "string", default: "7" },
  },
});
const requests = Number(args.requests);
const rounds = Number(args.rounds);
/** What the writer hands over at once under load (about one commit's worth of requests). */
const HAND_OFF_BATCH = 60;

const registry = createItemRegistry({ maxEventBytes: 1 << 20 });
const PUBLIC_KEY = "0123456789abcdef0123456789abcdef";

function processAll(bodies: Buffer[]): IngestRecord[][] {
  return bodies.map((body) => {
    const envelope = parseEnvelope(body);
    const context = { projectId: "1", envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "bench" };
    return processEnvelope(envelope, registry, context).records;
  });
}

const channel = new MessageChannel();

/** Hands the records over in batches as commit.main.ts does; the count of records received. */
function handOff(processed: IngestRecord[][]): number {
  let received = 0;
  for (let start = 0; start < processed.length; start += HAND_OFF_BATCH) {
    const records = processed.slice(start, start + HAND_OFF_BATCH).flat();
    channel.port1.postMessage({ type: "commit", id: start, records: handOver(records).records });
    received += (receiveMessageOnPort(channel.port2)?.message as { records: unknown[] }).records.length;
  }
  return received;
}

function measure(name: string, match: (text: string) => boolean) {
  const templates = templatesOfKind(PUBLIC_KEY, match);
  const process: number[] = [];
  const hand: number[] = [];
  let records = 0;
  // One round more than measured: the first pays for compiling the code.
  for (let round = 0; round <= rounds; round++) {
    const bodies = Array.from({ length: requests }, (_, i) => renderBody(templates[i % templates.length]!));
    const started = performance.now();
    const processed = processAll(bodies);
    const processedAt = performance.now();
    records = handOff(processed);
    const handedAt = performance.now();
    if (round === 0) continue;
    process.push(((processedAt - started) * 1000) / requests);
    hand.push(((handedAt - processedAt) * 1000) / requests);
  }
  const spread = (values: number[]) => (Math.max(...values) / Math.min(...values)).toFixed(2);
  return {
    requests: name,
    "process µs": median(process).toFixed(1),
    "hand-off µs": median(hand).toFixed(1),
    "spread (process, hand-off)": `${spread(process)}, ${spread(hand)}`,
    "records handed per request": (records / requests).toFixed(1),
  };
}

console.log(`bench:process: ${rounds} rounds of ${requests} requests per kind, median per request`);
const rows = [];
for (const [name, match] of Object.entries(REQUEST_KINDS)) rows.push(measure(name, match));
console.table(rows);
channel.port1.close();
