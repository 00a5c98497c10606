/**
 * Maps frames of Periscope's own server bundles (.next/server/...) back to the TypeScript sources
 * through the source maps the build writes beside them (`experimental.serverSourceMaps`). Next
 * formats server stacks itself, so Node's own source-map support does not apply to them.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

export interface OriginalPosition {
  filename: string;
  lineno: number;
  colno: number;
  function?: string;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
  in_app: boolean;
}

const CONTEXT_LINES = 5;
const MAX_MAPS = 200;
const maps = new Map<string, SourceMap | null>();

function mapFor(file: string): SourceMap | null {
  if (maps.has(file)) return maps.get(file)!;
  let map: SourceMap | null = null;
  try {
    if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
  } catch {
    map = null;
  }
  if (maps.size >= MAX_MAPS) maps.clear();
  maps.set(file, map);
  return map;
}

/** `function name(`, `const name = (`, `name(…) {` on or above the line: a guess, as Sentry makes for minified JS. */
const DECLARATION = /(?:function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\(|function|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{)/;

function enclosingFunction(lines: string[], index: number): string | undefined {
  for (let i = index; i >= Math.max(0, index - 40); i--) {
    const match = DECLARATION.exec(lines[i] ?? "");
    const name = match?.[1] ?? match?.[2] ?? match?.[3];
    if (name && !["if", "for", "while", "switch", "catch", "return"].includes(name)) return name;
  }
  return undefined;
}

/** The original position of a 1-based line/column in a bundle, or null when it has no source map. */
export function originalPosition(file: string, lineno: number, colno: number, root: string): OriginalPosition | null {
  const map = mapFor(file);
  if (!map) return null;
  const entry = map.findEntry(lineno - 1, colno - 1) as {
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return null;
  const source = entry.originalSource.replace(/^[a-z]+:\/\/\/?/i, "");
  const absolute = path.resolve(path.dirname(file), source);
  const filename = absolute.startsWith(root + path.sep) ? path.relative(root, absolute) : source;
  const payload = map.payload as { sources?: string[]; sourcesContent?: (string | null)[] };
  const content = payload.sourcesContent?.[payload.sources?.indexOf(entry.originalSource) ?? -1];
  const position: OriginalPosition = {
    filename,
    lineno: entry.originalLine + 1,
    colno: (entry.originalColumn ?? 0) + 1,
    in_app: !filename.includes("node_modules"),
  };
  if (!content) return position;
  const lines = content.split("\n");
  const at = entry.originalLine;
  return {
    ...position,
    function: enclosingFunction(lines, at),
    context_line: lines[at],
    pre_context: lines.slice(Math.max(0, at - CONTEXT_LINES), at),
    post_context: lines.slice(at + 1, at + 1 + CONTEXT_LINES),
  };
}
