/**
 * A real minified browser bundle for the source-map scenario (`--mix sourcemaps` of bench/ingest.ts): a
 * synthetic app of many small TypeScript modules, bundled and minified by esbuild with a source map
 * that carries real mappings, names and sourcesContent, grown until the map is about `targetBytes`;
 * then the real `sentry-cli sourcemaps inject` writes debug ids into both files.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

export interface BuiltBundle {
  dir: string;
  /** The minified file and its map, as sentry-cli uploads them ("~/app.min.js"). */
  file: string;
  mapFile: string;
  mapBytes: number;
  debugId: string;
  modules: number;
}

/** One synthetic module: functions, an arrow, a class, so the map has names and several lines per function. */
export function moduleSource(n: number, variant: number): string {
  return `// Module ${n} of the source-map benchmark's synthetic app (build variant ${variant}).
import { report } from "./shared";

export function orderTotal${n}(items: number[], rate: number): number {
  let total = 0;
  for (const item of items) {
    total += item * rate + ${n};
  }
  if (total > ${1_000_000 + n}) {
    throw new Error("order ${n} is too large: " + total);
  }
  return report(total, "orderTotal${n}");
}

export const formatLine${n} = (label: string, value: number): string => {
  const padded = label.padEnd(${(n % 13) + 4}, ".");
  return padded + " " + value.toFixed(2) + " (module ${n})";
};

export class Basket${n} {
  private readonly lines: { sku: string; quantity: number; price: number }[] = [];

  add(sku: string, quantity: number, price: number): void {
    if (quantity <= 0) throw new RangeError("basket ${n}: quantity must be positive for " + sku);
    this.lines.push({ sku, quantity, price });
  }

  checkout(rate: number): string {
    const total = orderTotal${n}(this.lines.map((line) => line.quantity * line.price), rate);
    return formatLine${n}("basket ${n}", total);
  }
}
`;
}

const SHARED = `export function report(value: number, where: string): number {
  if (!Number.isFinite(value)) throw new TypeError("not a number in " + where);
  return value;
}
`;

function entrySource(modules: number): string {
  const lines: string[] = [];
  for (let n = 0; n < modules; n++) lines.push(`import * as m${n} from "./m${n}";`);
  // Every module reachable from a global, so esbuild keeps them all.
  lines.push(`(globalThis as { benchApp?: unknown[] }).benchApp = [${Array.from({ length: modules }, (_, n) => `m${n}`).join(", ")}];`);
  return lines.join("\n") + "\n";
}

/** Modules for a map of `targetBytes`, from a build of `modules` that made `mapBytes` (the size grows linearly). */
export function modulesFor(targetBytes: number, modules: number, mapBytes: number): number {
  if (!(targetBytes > 0) || !(modules > 0) || !(mapBytes > 0)) throw new Error("modulesFor: sizes and counts must be above 0");
  return Math.max(1, Math.round((modules * targetBytes) / mapBytes));
}

/** Writes the app of `modules` modules and builds it; the map's size in bytes. */
async function buildOnce(dir: string, modules: number, variant: number): Promise<number> {
  const src = path.join(dir, "src");
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, "shared.ts"), SHARED);
  for (let n = 0; n < modules; n++) writeFileSync(path.join(src, `m${n}.ts`), moduleSource(n, variant));
  writeFileSync(path.join(src, "app.ts"), entrySource(modules));
  const out = path.join(dir, "dist", "app.min.js");
  await build({ entryPoints: [path.join(src, "app.ts")], bundle: true, minify: true, sourcemap: true, format: "iife", outfile: out, logLevel: "silent" });
  return statSync(`${out}.map`).size;
}

/** Builds the bundle in `dir` (variant: a different build of the same app, so a different debug id), then injects debug ids. */
export async function buildBundle(dir: string, sentryCli: string, options: { targetBytes: number; variant: number }): Promise<BuiltBundle> {
  const probe = 200;
  const probeBytes = await buildOnce(path.join(dir, "probe"), probe, options.variant);
  const modules = modulesFor(options.targetBytes, probe, probeBytes);
  await buildOnce(dir, modules, options.variant);
  const dist = path.join(dir, "dist");
  execFileSync(sentryCli, ["sourcemaps", "inject", dist], { env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: dir, SENTRY_LOAD_DOTENV: "0" }, stdio: "pipe" });
  const file = path.join(dist, "app.min.js");
  const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(file, "utf8"))?.[1];
  if (!debugId) throw new Error(`sentry-cli sourcemaps inject wrote no debug id into ${file}`);
  return { dir: dist, file, mapFile: `${file}.map`, mapBytes: statSync(`${file}.map`).size, debugId, modules };
}
