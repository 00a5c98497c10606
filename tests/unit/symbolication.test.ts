import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { BroadcastChannel } from "node:worker_threads";
import { processEnvelopeOrDefer } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import type { IngestRecord } from "../../src/model";
import type { JsonObject } from "../../src/processing/normalize-values";
import { storedEventOf } from "../../src/processing/stored-event";
import type { SourceMapNote } from "../../src/processing/types";
import { announceArtifactsChanged } from "../../src/symbolication/presence";
import { MapCache } from "../../src/symbolication/map-cache";
import { LocatedCache } from "../../src/symbolication/located-cache";
import type { LocatedMap } from "../../src/symbolication/locate";
import { ParsedMap } from "../../src/symbolication/parsed-map";
import { SourceMapThread } from "../../src/symbolication/sourcemap.main";
import { Symbolicator } from "../../src/symbolication/symbolicator";
import { addArtifacts, fileArtifactLookup } from "../helpers/file-artifacts";
import { buildBundle, type JsBuild } from "../helpers/js-builds";

const PROJECT = "1";
const NOW = Date.parse("2026-11-27T12:00:00Z");

const SOURCES = {
  "lib.ts": [
    'import { pad } from "left-pad";',
    "",
    "export function helperFunction(value: number): string {",
    "  const limit = 10;",
    "  if (value > limit) {",
    "    throw new Error(`value too large: ${value}`);",
    "  }",
    "  return pad(String(value));",
    "}",
    "",
  ].join("\n"),
  "app.ts": [
    'import { helperFunction } from "./lib";',
    'import { pad } from "left-pad";',
    "",
    "export function outerFunction(input: number): string {",
    "  const doubled = input * 2;",
    "  return helperFunction(doubled);",
    "}",
    "",
    "export function padBoom(): string {",
    '  return pad("boom");',
    "}",
    "",
  ].join("\n"),
  "node_modules/left-pad/index.js": ['export function pad(text) {', '  if (text === "boom") throw new TypeError("cannot pad boom");', '  return " " + text;', "}", ""].join("\n"),
};

/** Frames as @sentry/node sends them (caller → callee), from a real V8 stack of the bundle. */
function framesOf(error: Error, file: string, absPath: string): JsonObject[] {
  const frames: JsonObject[] = [];
  for (const line of (error.stack ?? "").split("\n").slice(1)) {
    const match = /at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line.trim());
    if (!match || match[2] !== file) continue;
    frames.push({ function: match[1] ?? "?", filename: absPath, abs_path: absPath, lineno: Number(match[3]), colno: Number(match[4]), in_app: true });
  }
  return frames.reverse();
}

/** Runs the bundle under plain node (tsx would map the stack through the map already) and returns what it threw. */
function thrown(build: JsBuild, call: "outerFunction" | "padBoom"): Error {
  const script = `try { require(${JSON.stringify(build.file)}).${call}(21) } catch (e) { process.stdout.write(JSON.stringify({ name: e.name, message: e.message, stack: e.stack })) }`;
  const out = execFileSync(process.execPath, ["-e", script], { env: { ...process.env, NODE_OPTIONS: "" }, encoding: "utf8" });
  return Object.assign(new Error(), JSON.parse(out) as { name: string; message: string; stack: string });
}

function eventOf(build: JsBuild, call: "outerFunction" | "padBoom", absPath: string, extra: JsonObject = {}): JsonObject {
  const error = thrown(build, call);
  return {
    platform: "node",
    exception: { values: [{ type: error.name, value: error.message, stacktrace: { frames: framesOf(error, build.file, absPath) } }] },
    ...extra,
  };
}

const debugMeta = (codeFile: string, debugId: string) => ({ debug_meta: { images: [{ type: "sourcemap", code_file: codeFile, debug_id: debugId }] } });
const framesIn = (raw: JsonObject) => ((raw.exception as JsonObject).values as JsonObject[])[0]!.stacktrace as { frames: JsonObject[] };
const top = (raw: JsonObject) => framesIn(raw).frames.at(-1)!;

describe("source-map resolution", () => {
  let work: string;
  let build: JsBuild;
  let thread: SourceMapThread;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "periscope-symbolication-"));
    build = await buildBundle({ sources: SOURCES, entry: "app.ts", outDir: path.join(work, "a") });
    thread = new SourceMapThread({ cacheBytes: 64 * 1024 * 1024 });
  });
  after(async () => {
    await thread.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A fresh artifact directory and resolver per test. */
  function setup(name: string) {
    const dir = path.join(work, `artifacts-${name}`);
    const lookup = fileArtifactLookup(dir);
    return { dir, lookup, symbolicator: new Symbolicator(lookup, thread) };
  }

  it("resolves by debug id: original file, line, column, function, context lines, frame data, raw stack kept", async () => {
    const { dir, symbolicator } = setup("debug-id");
    addArtifacts(dir, [
      { projectId: PROJECT, url: "~/dist/app.min.js", kind: "minified_source", bytes: build.code, debugId: build.debugId },
      { projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: build.map, debugId: build.debugId },
    ]);
    const raw = eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!));
    const minified = structuredClone(framesIn(raw).frames);
    assert.equal(symbolicator.wants(raw, PROJECT, NOW), true);
    const notes = await symbolicator.resolve(raw, PROJECT, NOW);
    assert.deepEqual(notes, []);
    const frames = framesIn(raw).frames;
    assert.equal(frames.length, 2);
    assert.deepEqual(top(raw), {
      function: "helperFunction",
      filename: "src/lib.ts",
      abs_path: "~/src/lib.ts",
      lineno: 6,
      colno: 11,
      in_app: true,
      pre_context: ['import { pad } from "left-pad";', "", "export function helperFunction(value: number): string {", "  const limit = 10;", "  if (value > limit) {"],
      context_line: "    throw new Error(`value too large: ${value}`);",
      post_context: ["  }", "  return pad(String(value));", "}", ""],
      data: { symbolicated: true, resolved_with: "debug-id", sourcemap: "~/dist/app.min.js.map" },
    });
    assert.equal(frames[0]!.function, "outerFunction");
    assert.equal(frames[0]!.filename, "src/app.ts");
    assert.equal(frames[0]!.lineno, 6);
    assert.equal(frames[0]!.context_line, "  return helperFunction(doubled);");
    // The minified frames stay beside the resolved ones, as Sentry's raw_stacktrace.
    const rawStack = ((raw.exception as JsonObject).values as JsonObject[])[0]!.raw_stacktrace as { frames: JsonObject[] };
    assert.deepEqual(rawStack.frames, minified);
    assert.notEqual(minified.at(-1)!.function, "helperFunction");
  });

  it("resolves by release + URL through the minified file's sourceMappingURL (older release files)", async () => {
    const { dir, symbolicator } = setup("release");
    const origin = { kind: "release_file" as const, release: "shop@1.2.0", dist: null };
    addArtifacts(dir, [
      { projectId: PROJECT, url: "~/static/app.min.js", kind: "minified_source", bytes: build.code, origin },
      { projectId: PROJECT, url: "~/static/app.min.js.map", kind: "source_map", bytes: build.map, origin },
    ]);
    const raw = eventOf(build, "outerFunction", "https://shop.example.com/static/app.min.js?v=7", { release: "shop@1.2.0" });
    assert.deepEqual(await symbolicator.resolve(raw, PROJECT, NOW), []);
    assert.equal(top(raw).function, "helperFunction");
    assert.equal(top(raw).lineno, 6);
    assert.deepEqual(top(raw).data, { symbolicated: true, resolved_with: "release-old", sourcemap: "~/static/app.min.js.map" });
  });

  it("marks node_modules frames as not in-app", async () => {
    const { dir, symbolicator } = setup("in-app");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: build.map, debugId: build.debugId }]);
    const raw = eventOf(build, "padBoom", build.file, debugMeta(build.file, build.debugId!));
    await symbolicator.resolve(raw, PROJECT, NOW);
    const frames = framesIn(raw).frames;
    assert.equal(top(raw).filename, "src/node_modules/left-pad/index.js");
    assert.equal(top(raw).in_app, false);
    assert.equal(top(raw).function, "pad");
    assert.equal(frames[0]!.in_app, true);
    assert.equal(frames[0]!.function, "padBoom");
  });

  function reasonsOf(notes: SourceMapNote[] | null): string[] {
    return (notes ?? []).map((note) => `${note.type}: ${note.reason}`);
  }

  it("says 'no bundle with debug id X' and keeps the frame minified", async () => {
    const { dir, symbolicator } = setup("no-bundle");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/other.js", kind: "minified_source", bytes: "x" }]);
    const debugId = "0b8a1f3e-2d6c-4c1b-9e7a-5f4d3c2b1a00";
    const raw = eventOf(build, "outerFunction", build.file, debugMeta(build.file, debugId));
    const before = structuredClone(top(raw));
    const notes = await symbolicator.resolve(raw, PROJECT, NOW);
    assert.deepEqual(reasonsOf(notes), [`js_no_source: no bundle with debug id ${debugId}`]);
    assert.deepEqual(notes![0]!.data, { url: build.file, debug_id: debugId });
    assert.equal(top(raw).function, before.function);
    assert.equal(top(raw).lineno, before.lineno);
    assert.deepEqual(top(raw).data, { symbolicated: false, unresolved: notes![0] });
  });

  it("says 'bundle found but no map for this file' when the bundle has only the minified file", async () => {
    const { dir, symbolicator } = setup("no-map");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js", kind: "minified_source", bytes: build.code, debugId: build.debugId, origin: { kind: "bundle", bundleId: "b-42" } }]);
    const notes = await symbolicator.resolve(eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!)), PROJECT, NOW);
    assert.deepEqual(reasonsOf(notes), [`js_no_source: bundle found but no map for this file: debug id ${build.debugId} is in bundle b-42 without a source map`]);
    assert.deepEqual(notes![0]!.data.bundles, ["b-42"]);
  });

  it("says 'release has no artifact for this URL' with the release, dist and URLs tried", async () => {
    const { dir, symbolicator } = setup("no-url");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/static/other.js", kind: "minified_source", bytes: "x", origin: { kind: "release_file", release: "shop@2", dist: "7" } }]);
    const notes = await symbolicator.resolve(eventOf(build, "outerFunction", "https://shop.example.com/static/app.min.js", { release: "shop@2", dist: "7" }), PROJECT, NOW);
    assert.deepEqual(reasonsOf(notes), [
      "js_no_source: release shop@2 (dist 7) has no artifact for this URL (tried https://shop.example.com/static/app.min.js, ~/static/app.min.js)",
    ]);
    assert.deepEqual(notes![0]!.data, { url: "https://shop.example.com/static/app.min.js", release: "shop@2", dist: "7", tried: ["https://shop.example.com/static/app.min.js", "~/static/app.min.js"] });
  });

  it("says 'bundle found but no map' when the release's minified file names a map that was not uploaded", async () => {
    const { dir, symbolicator } = setup("missing-ref");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/static/app.min.js", kind: "minified_source", bytes: build.code, origin: { kind: "release_file", release: "shop@3", dist: null } }]);
    const notes = await symbolicator.resolve(eventOf(build, "outerFunction", "https://shop.example.com/static/app.min.js", { release: "shop@3" }), PROJECT, NOW);
    assert.deepEqual(reasonsOf(notes), [
      "js_no_source: bundle found but no map for this file: ~/static/app.min.js names app.min.js.map, and release shop@3 has no artifact at ~/static/app.min.js.map",
    ]);
  });

  it("says 'map found but line/column out of range' for a position past the map", async () => {
    const { dir, symbolicator } = setup("range");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: build.map, debugId: build.debugId }]);
    const raw = eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!));
    Object.assign(top(raw), { lineno: 999, colno: 3 });
    const notes = await symbolicator.resolve(raw, PROJECT, NOW);
    assert.equal(notes!.length, 1);
    assert.equal(notes![0]!.type, "js_invalid_sourcemap_location");
    assert.match(notes![0]!.reason, /^map found but line 999, column 3 is out of range: ~\/dist\/app\.min\.js\.map maps \d+ lines/);
    assert.deepEqual(notes![0]!.data, { url: build.file, sourcemap: "~/dist/app.min.js.map", row: 999, column: 3 });
    assert.equal(top(raw).lineno, 999);
    assert.equal(framesIn(raw).frames[0]!.function, "outerFunction", "the other frame still resolves");
  });

  it("says a corrupt map is not a valid source map", async () => {
    const { dir, symbolicator } = setup("corrupt");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: '{"version":3,"mappings":', debugId: build.debugId }]);
    const notes = await symbolicator.resolve(eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!)), PROJECT, NOW);
    assert.equal(notes!.length, 1);
    assert.equal(notes![0]!.type, "js_invalid_source");
    assert.match(notes![0]!.reason, /^~\/dist\/app\.min\.js\.map is not a valid source map: not JSON/);
  });

  it("a map of another file answers out of range instead of inventing a position", async () => {
    const { dir, symbolicator } = setup("other-file");
    const other = await buildBundle({ sources: { "tiny.ts": "export const answer = 42;\n" }, entry: "tiny.ts", outDir: path.join(work, "tiny"), debugIds: false });
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: other.map, debugId: build.debugId }]);
    const notes = await symbolicator.resolve(eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!)), PROJECT, NOW);
    assert.deepEqual(new Set(notes!.map((note) => note.type)), new Set(["js_invalid_sourcemap_location"]));
  });

  it("resolves without context lines when the map has no sourcesContent, and says so", async () => {
    const { dir, symbolicator } = setup("no-content");
    const bare = await buildBundle({ sources: SOURCES, entry: "app.ts", outDir: path.join(work, "bare"), esbuild: { sourcesContent: false } });
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: bare.map, debugId: bare.debugId }]);
    const raw = eventOf(bare, "outerFunction", bare.file, debugMeta(bare.file, bare.debugId!));
    const notes = await symbolicator.resolve(raw, PROJECT, NOW);
    assert.equal(top(raw).lineno, 6);
    assert.equal(top(raw).context_line, undefined);
    assert.deepEqual(new Set(notes!.map((note) => note.type)), new Set(["js_missing_sources_content"]));
  });

  it("events without JavaScript frames, or of projects without artifacts, are not wanted", async () => {
    const { lookup, symbolicator } = setup("none");
    const python = { platform: "python", exception: { values: [{ type: "E", stacktrace: { frames: [{ filename: "a.py", lineno: 3 }] } }] } };
    assert.equal(symbolicator.wants(python, PROJECT, NOW), false);
    const raw = eventOf(build, "outerFunction", build.file);
    assert.equal(symbolicator.wants(raw, PROJECT, NOW), true, "unknown until asked");
    assert.equal(await symbolicator.resolve(raw, PROJECT, NOW), null);
    assert.equal(symbolicator.wants(raw, PROJECT, NOW), false, "known to have none");
    assert.equal(symbolicator.wants(raw, PROJECT, NOW + 11_000), true, "a 'no' is trusted 10 s only");
    assert.deepEqual(lookup.calls, [`hasArtifacts ${PROJECT}`]);
    // Still, a browser event says why its frames stay as sent; a Node one (usually unbundled) and a Python one say nothing.
    const browser = { ...raw, platform: "javascript" };
    assert.deepEqual(symbolicator.notesWithoutArtifacts(browser, PROJECT, NOW)?.map((note) => note.reason), [
      "the project has no uploaded source maps (no artifact bundle or release file), so its JavaScript frames stay as sent",
    ]);
    assert.equal(symbolicator.notesWithoutArtifacts(raw, PROJECT, NOW), undefined);
    assert.equal(symbolicator.notesWithoutArtifacts(python, PROJECT, NOW), undefined);
    assert.equal(symbolicator.notesWithoutArtifacts(browser, PROJECT, NOW + 11_000), undefined, "unknown again: resolve will look");
  });

  it("asks storage once per file for a burst of events, and sees an announced upload at once", async () => {
    const { dir, lookup, symbolicator } = setup("located-once");
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/other.js", kind: "minified_source", bytes: "x" }]);
    const debugId = build.debugId!;
    const eventWithMap = () => eventOf(build, "outerFunction", build.file, debugMeta(build.file, debugId));
    const events = [eventWithMap(), eventWithMap(), eventWithMap()];
    const burst = await Promise.all(events.map((raw) => symbolicator.resolve(raw, PROJECT, NOW)));
    assert.deepEqual(burst.map(reasonsOf), events.map(() => [`js_no_source: no bundle with debug id ${debugId}`]));
    const byDebugId = () => lookup.calls.filter((call) => call.startsWith("byDebugId")).length;
    assert.equal(byDebugId(), 1, lookup.calls.join("\n"));
    // The map arrives; the upload announces it, so the next event finds it without waiting out the miss.
    addArtifacts(dir, [{ projectId: PROJECT, url: "~/dist/app.min.js.map", kind: "source_map", bytes: build.map, debugId }]);
    // The announcement also crosses a BroadcastChannel (to the process's other threads, and back to
    // this one): let it arrive before the lookups it must not undo.
    const listener = new BroadcastChannel("periscope:artifacts-changed");
    const delivered = new Promise((resolve) => (listener.onmessage = resolve));
    announceArtifactsChanged(PROJECT);
    await delivered;
    listener.close();
    await new Promise((resolve) => setImmediate(resolve));
    const after = eventWithMap();
    assert.deepEqual(await symbolicator.resolve(after, PROJECT, NOW + 1), []);
    assert.equal(top(after).filename, "src/lib.ts");
    assert.equal(byDebugId(), 2);
    // Found: trusted for the next events without asking again.
    assert.deepEqual(await symbolicator.resolve(eventWithMap(), PROJECT, NOW + 30_000), []);
    assert.equal(byDebugId(), 2);
    // Past a minute it is asked again.
    await symbolicator.resolve(eventWithMap(), PROJECT, NOW + 70_000);
    assert.equal(byDebugId(), 3);
  });

  it("keeps no failed lookup and no inline map's bytes among the located maps", async () => {
    const cache = new LocatedCache();
    let asked = 0;
    const failing = () => {
      asked++;
      return Promise.reject(new Error("storage unreachable"));
    };
    await assert.rejects(cache.remember(PROJECT, "a.js", NOW, failing), /storage unreachable/);
    await assert.rejects(cache.remember(PROJECT, "a.js", NOW, failing), /storage unreachable/);
    assert.equal(asked, 2);
    const inline = async (): Promise<LocatedMap> => ({ ok: true, sha1: "0".repeat(40), url: "b.js", resolvedWith: "release", inline: Buffer.from("{}") });
    await cache.remember(PROJECT, "b.js", NOW, inline);
    assert.equal(cache.size, 0);
    await cache.remember(PROJECT, "c.js", NOW, async () => ({ ok: false, note: { type: "js_no_source", reason: "none", data: {} } }));
    assert.equal(cache.size, 1);
    cache.forget(PROJECT);
    assert.equal(cache.size, 0);
  });

  it("two builds of the same code with different minified names and debug ids group as one issue", async () => {
    const { dir, symbolicator } = setup("two-builds");
    const second = await buildBundle({
      sources: { ...SOURCES, "app.ts": `import "./noise";\n${SOURCES["app.ts"]}`, "noise.ts": "export function a1(){return 1}export function a2(){return a1()+1}\nObject.assign(globalThis, { noise: a2() });\n" },
      entry: "app.ts",
      outDir: path.join(work, "b"),
    });
    // Shift app.ts's lines back: the noise import is line 1, so line numbers differ but names and files do not.
    assert.notEqual(second.debugId, build.debugId);
    addArtifacts(dir, [
      { projectId: PROJECT, url: "~/a/app.min.js.map", kind: "source_map", bytes: build.map, debugId: build.debugId },
      { projectId: PROJECT, url: "~/b/app.min.js.map", kind: "source_map", bytes: second.map, debugId: second.debugId },
    ]);
    const registry = createItemRegistry({ maxEventBytes: 1 << 20 }, symbolicator);
    const groupingOf = async (raw: JsonObject) => {
      const payload = Buffer.from(JSON.stringify(raw));
      const context = { projectId: PROJECT, envelopeHeaders: {}, receivedAt: NOW, clientIp: undefined, userAgent: undefined };
      const processed = await processEnvelopeOrDefer({ headers: {}, items: [{ headers: { type: "event" }, payload }] }, registry, context);
      return processed.records.find((record): record is Extract<IngestRecord, { kind: "event" }> => record.kind === "event")!;
    };
    const first = eventOf(build, "outerFunction", build.file, debugMeta(build.file, build.debugId!));
    const other = eventOf(second, "outerFunction", second.file, debugMeta(second.file, second.debugId!));
    assert.notEqual(top(first).function, top(other).function, "the builds' minified names differ");
    const [a, b] = [await groupingOf(first), await groupingOf(other)];
    assert.equal(a.grouping.hash, b.grouping.hash);
    assert.equal(a.grouping.metadata.function, "helperFunction");
    // The stored payload holds the resolved frames, read back whole.
    const stored = storedEventOf(a.payload);
    assert.equal(stored.exception[0]!.stacktrace!.frames.at(-1)!.filename, "src/lib.ts");
    assert.equal(stored.exception[0]!.raw_stacktrace!.frames.length, 2);
  });

  it("parsed maps are cached under the memory bound, least recently used out first", () => {
    const map = ParsedMap.parse(Buffer.from(build.map));
    const cache = new MapCache(map.cost * 2 + 10);
    cache.set("a", { kind: "map", map });
    cache.set("b", { kind: "map", map });
    cache.get("a");
    cache.set("c", { kind: "map", map });
    assert.equal(cache.size, 2);
    assert.equal(cache.get("b"), undefined);
    assert.ok(cache.get("a") && cache.get("c"));
    assert.ok(cache.usedBytes <= map.cost * 2 + 10);
    const tiny = new MapCache(10);
    tiny.set("big", { kind: "map", map });
    assert.equal(tiny.size, 0, "a map larger than the whole bound is not kept");
  });
});
