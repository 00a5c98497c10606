/**
 * Source context that source-map resolution adds after the first scrubbing pass is scrubbed too
 * (src/items/event.ts, src/items/scrub.ts rescrubInPlace), as Sentry scrubs again after stacktrace
 * processing: a real esbuild bundle whose original source holds a bearer token and a `password=`
 * pair beside the throwing line; the stored event has its frames resolved, the context lines without
 * the planted values, and `_meta` remarks on them beside the first pass's.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { processEnvelopeOrDefer } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import type { ItemContext } from "../../src/items/types";
import type { IngestRecord } from "../../src/model";
import type { JsonObject } from "../../src/processing/normalize-values";
import { scrubbedValues } from "../../src/processing/scrub/meta";
import { storedEventOf } from "../../src/processing/stored-event";
import { SourceMapThread } from "../../src/symbolication/sourcemap.main";
import { Symbolicator } from "../../src/symbolication/symbolicator";
import { addArtifacts, fileArtifactLookup } from "../helpers/file-artifacts";
import { buildBundle, type JsBuild } from "../helpers/js-builds";

const PROJECT = "1";
const TOKEN = "plantedTokenQ7x9";
const PASSWORD = "plantedPass4411";

const SOURCES = {
  "app.ts": [
    "export function connect(): string {",
    `  const header = "Authorization: Bearer ${TOKEN}";`,
    `  const dsn = "postgres://db.internal/?password=${PASSWORD}";`,
    "  throw new Error(`cannot connect ${header.length} ${dsn.length}`);",
    "}",
    "",
  ].join("\n"),
};

describe("source context added by source maps is scrubbed", () => {
  let work: string;
  let build: JsBuild;
  let thread: SourceMapThread;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "periscope-symbolication-scrub-"));
    build = await buildBundle({ sources: SOURCES, entry: "app.ts", outDir: path.join(work, "a") });
    thread = new SourceMapThread({ cacheBytes: 16 * 1024 * 1024 });
  });
  after(async () => {
    await thread.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** The bundle run under plain node; its frames as @sentry/node sends them. */
  function eventOf(): JsonObject {
    const script = `try { require(${JSON.stringify(build.file)}).connect() } catch (e) { process.stdout.write(JSON.stringify({ message: e.message, stack: e.stack })) }`;
    const thrown = JSON.parse(execFileSync(process.execPath, ["-e", script], { env: { ...process.env, NODE_OPTIONS: "" }, encoding: "utf8" })) as { message: string; stack: string };
    const frames: JsonObject[] = [];
    for (const line of thrown.stack.split("\n").slice(1)) {
      const match = /at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line.trim());
      if (match && match[2] === build.file) frames.push({ function: match[1] ?? "?", filename: build.file, abs_path: build.file, lineno: Number(match[3]), colno: Number(match[4]), in_app: true });
    }
    return {
      platform: "node",
      extra: { password: "first-pass-secret" },
      exception: { values: [{ type: "Error", value: thrown.message, stacktrace: { frames: frames.reverse() } }] },
      debug_meta: { images: [{ type: "sourcemap", code_file: build.file, debug_id: build.debugId }] },
    };
  }

  async function stored(scrubber?: ItemContext["scrubber"]): Promise<string> {
    const dir = path.join(work, `artifacts-${scrubber === null ? "off" : "on"}`);
    addArtifacts(dir, [
      { projectId: PROJECT, url: "~/dist/app.min.js", kind: "minified_source", bytes: build.code, debugId: build.debugId },
      { projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: build.map, debugId: build.debugId },
    ]);
    const registry = createItemRegistry({ maxEventBytes: 1 << 20 }, new Symbolicator(fileArtifactLookup(dir), thread));
    const context: ItemContext = { projectId: PROJECT, envelopeHeaders: {}, receivedAt: Date.now(), clientIp: undefined, userAgent: undefined, scrubber };
    const payload = Buffer.from(JSON.stringify(eventOf()));
    const processed = await processEnvelopeOrDefer({ headers: {}, items: [{ headers: { type: "event" }, payload }] }, registry, context);
    const record = processed.records.find((candidate): candidate is Extract<IngestRecord, { kind: "event" }> => candidate.kind === "event");
    assert.ok(record, "the event is stored");
    return record.payload;
  }

  it("the resolved context lines hold no planted value, and _meta says where", async () => {
    const payload = await stored();
    const event = storedEventOf(payload);
    const frame = event.exception.at(-1)!.stacktrace!.frames.at(-1)!;
    // Resolved to the original file, so the context came from the uploaded map.
    assert.equal(frame.function, "connect");
    assert.equal(frame.context_line, "  throw new Error(`cannot connect ${header.length} ${dsn.length}`);");
    for (const secret of [TOKEN, PASSWORD, "first-pass-secret"]) assert.equal(payload.includes(secret), false, `the stored event holds ${secret}`);
    assert.equal(frame.pre_context!.length, 3);
    assert.match(frame.pre_context![1]!, /Bearer \[Filtered\]/);
    assert.match(frame.pre_context![2]!, /password=\[Filtered\]/);
    const paths = scrubbedValues(event._meta).map((value) => value.path);
    assert.ok(paths.includes("extra.password"), "the first pass's remark is kept");
    assert.ok(paths.some((value) => /^exception\.values\.0\.stacktrace\.frames\.\d+\.pre_context\.1$/.test(value)), `a remark on the context line: ${paths.join(", ")}`);
  });

  it("with scrubbing off for the project the context is stored as resolved", async () => {
    const payload = await stored(null);
    assert.ok(payload.includes(TOKEN) && payload.includes(PASSWORD));
  });
});
