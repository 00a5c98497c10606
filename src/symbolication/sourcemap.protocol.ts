/**
 * The messages between the main thread and the source-map thread (sourcemap.main.ts is the main
 * thread's handle, sourcemap.thread.ts runs there). Maps cross as their bytes, once, when the
 * thread does not hold them parsed yet; positions and answers are small.
 */
import type { PositionResult } from "./parsed-map";

/** The source-map thread's name in /proc (src/thread-name.ts). */
export const SOURCEMAP_THREAD_NAME = "sourcemaps";

export interface SourceMapThreadData {
  /** Bound of the parsed-map cache (SOURCEMAP_CACHE_MB). */
  cacheBytes: number;
}

/** Positions to look up in the map with this content hash (1-based lines and columns). */
export interface MapLookup {
  sha1: string;
  positions: { line: number; column: number }[];
}

export interface MapContent {
  sha1: string;
  bytes: Uint8Array;
}

/** Per lookup: the positions' origins, or "missing" (send the bytes), or why the map is unusable. */
export type LookupAnswer =
  | { kind: "resolved"; positions: PositionResult[] }
  | { kind: "missing" }
  | { kind: "invalid"; reason: string };

/** One request to the thread (src/threads/protocol.ts carries it); answered with a LookupAnswer per lookup. */
export interface ResolveRequest {
  lookups: MapLookup[];
  contents: MapContent[];
}
