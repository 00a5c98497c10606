/**
 * A source map parsed once and asked for many positions: runs on the source-map thread
 * (sourcemap.thread.ts), and directly in unit tests. Decoding is @jridgewell/trace-mapping's.
 */
import { decodedMappings, FlattenMap, traceSegment, TraceMap } from "@jridgewell/trace-mapping";

/** Where a minified position came from, or why it cannot be told. */
export type PositionResult =
  | {
      ok: true;
      /** The map's `sources` entry, as written (resolved by the main thread, source-paths.ts). */
      source: string;
      sourceRoot: string | undefined;
      /** 1-based, as frames count. */
      line: number;
      column: number;
      /** The map's `names` entry at this position: what the token there was called in the original. */
      name: string | null;
      /** Null when the map carries no sourcesContent for this source. */
      context: { pre: string[]; line: string; post: string[] } | null;
      /** The nearest function declared on or above the line in the original source (a guess, see enclosingFunction). */
      enclosing: string | null;
    }
  | { ok: false; problem: "out_of_range"; mappedLines: number };

const CONTEXT_LINES = 5;
const MAX_SCAN_LINES = 200;
/** `function name(`, `name = (…) =>` / `name = function`, `name: function`, a method `name(…) {`. */
const DECLARATION =
  /(?:\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(])|(?:\b([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>))|(?:\b([A-Za-z_$][\w$]*)\s*:\s*(?:async\s*)?function\b)|(?:^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{)/;
const KEYWORDS: ReadonlySet<string> = new Set(["if", "for", "while", "switch", "catch", "return", "function", "else", "do", "with"]);
const MAX_LINE_CHARS = 1000;

export class ParsedMap {
  /** Bytes this entry is thought to hold: the text's size times what decoding and lines add (map-cache.ts). */
  readonly cost: number;
  private readonly lines = new Map<number, string[]>();

  private constructor(private readonly map: TraceMap, byteLength: number) {
    this.cost = byteLength * 3;
  }

  /** Throws with a short reason when the bytes are not a version 3 source map. */
  static parse(bytes: Uint8Array): ParsedMap {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    let json: unknown;
    try {
      // A map may start with the XSSI guard `)]}'` (section 1.4 of the source map spec).
      json = JSON.parse(text.startsWith(")]}") ? text.slice(text.indexOf("\n") + 1) : text);
    } catch (error) {
      throw new Error(`not JSON (${(error as Error).message})`);
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) throw new Error("not a JSON object");
    const record = json as Record<string, unknown>;
    if (record.version !== 3) throw new Error(`version is ${JSON.stringify(record.version)}, not 3`);
    const sectioned = Array.isArray(record.sections);
    if (!sectioned && (typeof record.mappings !== "string" || !Array.isArray(record.sources))) {
      throw new Error("no `mappings` string or `sources` list");
    }
    try {
      const map = sectioned ? FlattenMap(json as never) : new TraceMap(json as never);
      // Decoded now, on this thread, so that a bad `mappings` string fails here and not on a lookup.
      decodedMappings(map);
      return new ParsedMap(map, bytes.byteLength);
    } catch (error) {
      throw new Error(`unreadable mappings (${(error as Error).message})`);
    }
  }

  /** 1-based line and column in the minified file (column 1 when the SDK sent none). */
  resolve(line: number, column: number): PositionResult {
    const mappedLines = decodedMappings(this.map).length;
    const segment = line >= 1 ? traceSegment(this.map, line - 1, Math.max(0, column - 1)) : null;
    if (!segment || segment.length < 4) return { ok: false, problem: "out_of_range", mappedLines };
    const sourceIndex = segment[1]!;
    const originalLine = segment[2]!;
    const originalColumn = segment[3]!;
    const source = this.map.sources[sourceIndex] ?? "";
    const name = segment.length === 5 ? (this.map.names[segment[4]!] ?? null) : null;
    return {
      ok: true,
      source: source ?? "",
      sourceRoot: this.map.sourceRoot ?? undefined,
      line: originalLine + 1,
      column: originalColumn + 1,
      name,
      context: this.contextAt(sourceIndex, originalLine),
      enclosing: this.enclosingFunction(sourceIndex, originalLine),
    };
  }

  /**
   * The function a position is in, read from the original source: the nearest declaration on or
   * above its line. For frames whose caller names nothing (the outermost one, callbacks from the
   * engine), so that their name does not stay the minified one that changes with every build.
   */
  private enclosingFunction(sourceIndex: number, line: number): string | null {
    const lines = this.linesOf(sourceIndex);
    if (!lines) return null;
    for (let index = Math.min(line, lines.length - 1); index >= Math.max(0, line - MAX_SCAN_LINES); index--) {
      const match = DECLARATION.exec(lines[index]!);
      const name = match?.[1] ?? match?.[2] ?? match?.[3] ?? match?.[4];
      if (name && !KEYWORDS.has(name)) return name;
    }
    return null;
  }

  private linesOf(sourceIndex: number): string[] | null {
    let lines = this.lines.get(sourceIndex);
    if (!lines) {
      const content = this.map.sourcesContent?.[sourceIndex];
      if (typeof content !== "string") return null;
      lines = content.split(/\r\n|\r|\n/);
      this.lines.set(sourceIndex, lines);
    }
    return lines;
  }

  private contextAt(sourceIndex: number, line: number): { pre: string[]; line: string; post: string[] } | null {
    const lines = this.linesOf(sourceIndex);
    if (!lines || line >= lines.length) return null;
    const clip = (text: string) => (text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text);
    return {
      pre: lines.slice(Math.max(0, line - CONTEXT_LINES), line).map(clip),
      line: clip(lines[line]!),
      post: lines.slice(line + 1, line + 1 + CONTEXT_LINES).map(clip),
    };
  }
}
