/**
 * The source-map scenario's helpers (bench/sourcemaps/): the cold-map probe's split of latencies by
 * window, the bundle's size scaling, frames placed at real positions of a real esbuild map (and
 * resolved back by the server's own map reader), the mix's alternation, and the read-back check.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { build } from "esbuild";
import { modulesFor, moduleSource } from "../../bench/sourcemaps/bundle";
import { isResolvedFrame, framesOf } from "../../bench/sourcemaps/check";
import { alternate, BUNDLE_URL, bundleEventTemplates, namedPositions } from "../../bench/sourcemaps/events";
import { splitByWindow } from "../../bench/sourcemaps/probe";
import { ParsedMap } from "../../src/symbolication/parsed-map";

describe("bench source-map scenario helpers", () => {
  let work: string;
  let map: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "periscope-bench-maps-test-"));
    const entry = path.join(work, "m7.ts");
    await build({ stdin: { contents: moduleSource(7, 1).replace('import { report } from "./shared";', "const report = (value: number, _where: string) => value;"), loader: "ts", sourcefile: entry }, bundle: true, minify: true, sourcemap: "external", format: "iife", outfile: path.join(work, "app.min.js"), logLevel: "silent" });
    map = readFileSync(path.join(work, "app.min.js.map"), "utf8");
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("splitByWindow: a request in flight at any moment of the window counts in it", () => {
    const samples = [
      { at: 0, latencyMs: 5 }, // answered before the window
      { at: 8, latencyMs: 5 }, // due before, answered inside
      { at: 12, latencyMs: 1 }, // inside
      { at: 19, latencyMs: 30 }, // due inside, answered after
      { at: 21, latencyMs: 1 }, // after
    ];
    assert.deepEqual(splitByWindow(samples, 10, 20), { during: [5, 1, 30], outside: [5, 1], answeredInside: 2 });
    assert.throws(() => splitByWindow(samples, 20, 10), /ends \(10\) before it starts \(20\)/);
  });

  it("modulesFor scales the module count to the target map size", () => {
    assert.equal(modulesFor(5_000_000, 200, 400_000), 2500);
    assert.equal(modulesFor(1, 200, 400_000), 1);
    assert.throws(() => modulesFor(5_000_000, 0, 400_000), /above 0/);
  });

  it("bundle events point at named positions of the map, which the server's map reader resolves into the module", () => {
    const positions = namedPositions(map, 6);
    assert.equal(positions.length, 6);
    assert.ok(positions.every((position) => position.line >= 1 && position.column >= 1));
    const templates = bundleEventTemplates(positions, { debugId: "0b8a1f3e-2d6c-4c1b-9e7a-5f4d3c2b1a00", release: "web@1", frames: 3, label: "bundle" });
    assert.equal(templates.length, 2);
    assert.equal(templates[0]!.label, "bundle");
    const text = Buffer.concat(templates[0]!.parts).toString("utf8");
    const event = JSON.parse(text.split("\n")[2]!) as { release: string; debug_meta: { images: { code_file: string; debug_id: string }[] }; exception: { values: { stacktrace: { frames: { abs_path: string; lineno: number; colno: number }[] } }[] } };
    assert.equal(event.release, "web@1");
    assert.deepEqual(event.debug_meta.images, [{ type: "sourcemap", code_file: BUNDLE_URL, debug_id: "0b8a1f3e-2d6c-4c1b-9e7a-5f4d3c2b1a00" }]);
    const frames = event.exception.values[0]!.stacktrace.frames;
    assert.deepEqual(frames.map((frame) => [frame.lineno, frame.colno]), positions.slice(0, 3).map((position) => [position.line, position.column]));
    const parsed = ParsedMap.parse(Buffer.from(map));
    for (const frame of frames) {
      const resolved = parsed.resolve(frame.lineno, frame.colno);
      assert.ok(resolved.ok && resolved.source.endsWith("m7.ts") && resolved.context !== null, JSON.stringify(resolved));
    }
    assert.throws(() => namedPositions(JSON.stringify({ version: 3, sources: [], names: [], mappings: "" }), 1), /no named segments/);
  });

  it("alternate: one of each in turn until both are used up", () => {
    assert.deepEqual(alternate(["p1", "p2"], ["b1", "b2", "b3"]), ["p1", "b1", "p2", "b2", "p1", "b3"]);
    assert.throws(() => alternate([], ["b1"]), /both lists/);
  });

  it("the read-back check counts resolved frames of stack traces, not of the minified raw ones", () => {
    const resolved = { filename: "src/m12.ts", lineNo: 5, context: [[5, "  let total = 0;"]] };
    const minified = { filename: BUNDLE_URL, lineNo: 1, context: [] };
    const event = { entries: [{ type: "exception", data: { values: [{ stacktrace: { frames: [resolved, { ...resolved, context: [] }] }, rawStacktrace: { frames: [minified] } }] } }] };
    const frames = framesOf(event);
    assert.equal(frames.length, 2);
    assert.deepEqual(frames.map(isResolvedFrame), [true, false]);
    assert.equal(isResolvedFrame(minified), false);
  });
});
