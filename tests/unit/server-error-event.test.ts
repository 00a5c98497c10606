/**
 * Server-side exceptions become Sentry events with frames mapped back through the bundle's source
 * map: a real minified bundle (esbuild, as Next's server chunks are) throws, and the frame must name
 * the TypeScript file, the line, the enclosing function and its source context.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, it } from "node:test";
import { build } from "esbuild";
import { parseV8Stack, serverErrorEvent } from "../../src/monitoring/error-event";

const SOURCE = `export function renderInvoice(total: number): string {
  if (total < 0) {
    throw new Error("negative invoice total");
  }
  return String(total);
}
`;

let root: string;
let thrown: Error;

before(async () => {
  root = mkdtempSync(path.join(tmpdir(), "periscope-stack-"));
  mkdirSync(path.join(root, "app"));
  writeFileSync(path.join(root, "app", "invoice.ts"), SOURCE);
  const outfile = path.join(root, ".next", "server", "chunks", "invoice.mjs");
  await build({ entryPoints: [path.join(root, "app", "invoice.ts")], outfile, bundle: true, minify: true, sourcemap: true, format: "esm", platform: "node" });
  // tsx turns on Node's own source-map support for this process (it applies from module load on);
  // Next's server stacks arrive unmapped, so load and run the bundle without it.
  process.setSourceMapsEnabled(false);
  const bundle = (await import(pathToFileURL(outfile).href)) as { renderInvoice: (total: number) => string };
  try {
    bundle.renderInvoice(-1);
  } catch (error) {
    thrown = error as Error;
  } finally {
    process.setSourceMapsEnabled(true);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

it("maps a bundled frame back to its source file, line, function and context", () => {
  const frames = parseV8Stack(thrown.stack, root);
  const crash = frames.at(-1)!;
  assert.deepEqual(
    { ...crash, abs_path: path.relative(root, crash.abs_path) },
    {
      filename: "app/invoice.ts",
      abs_path: ".next/server/chunks/invoice.mjs",
      module: "invoice",
      lineno: 3,
      colno: 11,
      function: "renderInvoice",
      in_app: true,
      context_line: '    throw new Error("negative invoice total");',
      pre_context: ["export function renderInvoice(total: number): string {", "  if (total < 0) {"],
      post_context: ["  }", "  return String(total);", "}", ""],
    },
  );
});

it("keeps frames without a source map as V8 reports them, caller first", () => {
  const stack = "Error: x\n    at inner (/srv/app/lib/a.js:10:5)\n    at outer (/srv/app/node_modules/dep/b.js:2:1)\n    at node:internal/timers:1:1";
  assert.deepEqual(parseV8Stack(stack, "/srv/app"), [
    { filename: "node:internal/timers", abs_path: "node:internal/timers", lineno: 1, colno: 1, in_app: false, module: "timers" },
    { function: "outer", filename: "node_modules/dep/b.js", abs_path: "/srv/app/node_modules/dep/b.js", lineno: 2, colno: 1, in_app: false, module: "b" },
    { function: "inner", filename: "lib/a.js", abs_path: "/srv/app/lib/a.js", lineno: 10, colno: 5, in_app: true, module: "a" },
  ]);
});

it("builds the event with the cause chain oldest first and the digest as a tag", () => {
  const error = new Error("render failed", { cause: new TypeError("bad total") });
  const event = serverErrorEvent(error, { mechanism: "next.onRequestError", digest: "123456", path: "/invoices", method: "GET" }, { release: "periscope@1.2.3", root });
  assert.deepEqual(
    event.exception.values.map((value) => ({ type: value.type, value: value.value, mechanism: value.mechanism })),
    [
      { type: "TypeError", value: "bad total", mechanism: { type: "chained", handled: false } },
      { type: "Error", value: "render failed", mechanism: { type: "next.onRequestError", handled: false } },
    ],
  );
  assert.deepEqual(event.tags, { runtime: "node", digest: "123456" });
  assert.deepEqual(event.request, { url: "/invoices", method: "GET" });
  assert.equal(event.release, "periscope@1.2.3");
});
