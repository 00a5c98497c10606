/**
 * Real minified bundles with source maps for the resolver's tests: TypeScript sources bundled and
 * minified by esbuild, debug ids injected by the real `sentry-cli sourcemaps inject`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface JsBuild {
  dir: string;
  /** The minified file and its map. */
  file: string;
  mapFile: string;
  code: string;
  map: string;
  /** Injected by sentry-cli; null when built without. */
  debugId: string | null;
}

export interface BuildOptions {
  /** Relative file name → TypeScript source. */
  sources: Record<string, string>;
  entry: string;
  outDir: string;
  outName?: string;
  platform?: "node" | "browser";
  /** Prepended to the entry's output, so two builds of the same code get different minified names. */
  banner?: string;
  debugIds?: boolean;
  /** Extra esbuild options: `sourcesContent: false`, `format`, ... */
  esbuild?: esbuild.BuildOptions;
}

export async function buildBundle(options: BuildOptions): Promise<JsBuild> {
  const srcDir = path.join(options.outDir, "src");
  for (const [name, source] of Object.entries(options.sources)) {
    mkdirSync(path.dirname(path.join(srcDir, name)), { recursive: true });
    writeFileSync(path.join(srcDir, name), source);
  }
  const distDir = path.join(options.outDir, "dist");
  const file = path.join(distDir, options.outName ?? "app.min.js");
  await esbuild.build({
    entryPoints: [path.join(srcDir, options.entry)],
    outfile: file,
    bundle: true,
    minify: true,
    sourcemap: true,
    platform: options.platform ?? "node",
    format: options.platform === "browser" ? "iife" : "cjs",
    banner: options.banner ? { js: options.banner } : undefined,
    logLevel: "silent",
    ...options.esbuild,
  });
  let debugId: string | null = null;
  if (options.debugIds !== false) {
    execFileSync(path.join(root, "node_modules", ".bin", "sentry-cli"), ["sourcemaps", "inject", distDir], { stdio: "pipe" });
    debugId = /\/\/# debugId=([0-9a-f-]+)/.exec(readFileSync(file, "utf8"))?.[1] ?? null;
    if (!debugId) throw new Error("sentry-cli injected no debug id");
  }
  return { dir: distDir, file, mapFile: `${file}.map`, code: readFileSync(file, "utf8"), map: readFileSync(`${file}.map`, "utf8"), debugId };
}

/** 1-based line and column of the first occurrence of `needle` in the minified code. */
export function positionOf(code: string, needle: string): { lineno: number; colno: number } {
  const index = code.indexOf(needle);
  if (index < 0) throw new Error(`${needle} is not in the bundle`);
  const before = code.slice(0, index).split("\n");
  return { lineno: before.length, colno: before.at(-1)!.length + 1 };
}
