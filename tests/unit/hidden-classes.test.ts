/**
 * What ingest makes of every fixture envelope (events, sessions, client reports, transactions, span
 * containers, attachments) has one hidden class per shape, not one per request, once the code is
 * warm: in Node 20's V8 an object spread given more properties gets a new hidden class each time,
 * and hidden classes live in the old generation (src/ingest/cors.ts, docs/performance.md). Checked
 * with V8's %HaveSameMap in a child process started with --allow-natives-syntax, on the records the
 * main thread makes and the commit records the SQLite commit thread is handed, two requests of the
 * same envelope with fresh ids compared object by object.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { runWithNatives, sourcePath } from "../helpers/natives";

const root = path.resolve(import.meta.dirname, "..", "..");
const fixtures = path.join(root, "tests", "fixtures", "envelopes");
const envelopeFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".envelope")).map((name) => path.join(dir, name));
const files = ["", "telemetry", "bench"].flatMap((dir) => envelopeFiles(path.join(fixtures, dir)));

/**
 * Paths (within the records) of the objects whose hidden class differed between two warm requests,
 * per fixture. `after` (JavaScript source of a function) may remake what ingest returned, to check the check.
 */
function differingObjects(after = "(made) => made"): Record<string, string[]> {
  const script = `
    const { readFileSync } = await import("node:fs");
    const { randomBytes } = await import("node:crypto");
    const { parseEnvelope } = await import(${sourcePath("src/ingest/envelope.ts")});
    const { processEnvelope } = await import(${sourcePath("src/ingest/pipeline.ts")});
    const { createItemRegistry } = await import(${sourcePath("src/items/index.ts")});
    const { readSpanContainers, asRead } = await import(${sourcePath("src/items/span-containers.ts")});
    const { toCommitRecord } = await import(${sourcePath("src/storage/sqlite/commit-records.ts")});
    const registry = createItemRegistry({ maxEventBytes: 1 << 20 });
    const FIXTURE_KEY = "0123456789abcdef0123456789abcdef";
    const ingest = (text) => {
      // Fresh event and trace ids, as every real request has.
      for (const id of new Set(text.match(/[0-9a-f]{32}/g) ?? [])) if (id !== FIXTURE_KEY) text = text.split(id).join(randomBytes(16).toString("hex"));
      const envelope = parseEnvelope(Buffer.from(text, "latin1"));
      const context = { projectId: "1", envelopeHeaders: envelope.headers, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "test" };
      const records = readSpanContainers(processEnvelope(envelope, registry, context).records, asRead).records;
      return (${after})({ records, commits: records.map(toCommitRecord) });
    };
    const differing = (a, b, where, out) => {
      if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return;
      if (Array.isArray(a)) {
        for (let i = 0; i < Math.min(a.length, b.length); i++) differing(a[i], b[i], where + "[" + i + "]", out);
        return;
      }
      if (!%HaveSameMap(a, b)) out.push(where);
      for (const key of Object.keys(a)) differing(a[key], b[key], where + "." + key, out);
    };
    const result = {};
    for (const file of ${JSON.stringify(files)}) {
      const text = readFileSync(file, "latin1");
      // The first few objects of a spread still share one hidden class; a few hundred requests are enough to warm it.
      for (let i = 0; i < 300; i++) ingest(text);
      const out = [];
      differing(ingest(text), ingest(text), "", out);
      result[file.slice(${JSON.stringify(fixtures.length + 1)})] = out;
    }
    console.log(JSON.stringify(result));`;
  return JSON.parse(runWithNatives(script)) as Record<string, string[]>;
}

describe("the records ingest makes", () => {
  it("share one hidden class per shape across requests, for every fixture envelope", () => {
    const differing = differingObjects();
    assert.equal(Object.keys(differing).length, files.length);
    assert.deepEqual(
      Object.entries(differing).filter(([, paths]) => paths.length > 0),
      [],
    );
  });

  it("are checked well enough to find a record remade by a spread given one more property", () => {
    // Attachment records (issue 38) left as they are: with their shape at this spread too, the copies
    // of the two fixtures below no longer differed (seen on Node 20), so the check of the check passed nothing.
    const differing = differingObjects(
      "(made) => ({ records: made.records.map((record) => (record.kind === 'attachment' ? record : { ...record, checked: true })), commits: made.commits })",
    );
    assert.deepEqual(differing["browser-uncaught-error.envelope"], [".records[0]", ".records[1]"]);
    assert.deepEqual(differing["node-session-ok.envelope"], [".records[0]", ".records[1]"]);
  });
});
