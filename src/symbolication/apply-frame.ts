/**
 * Writes a resolved position onto an SDK frame (the raw JSON, before normalisation, so grouping and
 * the stored payload both see the original code), or the reason it stayed minified.
 */
import type { JsonObject } from "../processing/normalize-values";
import type { FrameData, SourceMapNote } from "../processing/types";
import type { PositionResult } from "./parsed-map";
import { originalPathOf } from "./source-paths";

export type Resolved = Extract<PositionResult, { ok: true }>;

/** `callSiteName`: the map's name at the caller's call site, i.e. what the original code called this function. */
export function applyResolved(frame: JsonObject, position: Resolved, map: { url: string; resolvedWith: NonNullable<FrameData["resolved_with"]> }, callSiteName: string | null, missingSource: SourceMapNote | null): void {
  const path = originalPathOf(position.source, position.sourceRoot, map.url);
  frame.abs_path = path.absPath;
  frame.filename = path.filename;
  frame.lineno = position.line;
  frame.colno = position.column;
  frame.in_app = path.inApp;
  // The Node SDK's module is derived from the bundle's file name; it named the minified file.
  delete frame.module;
  if (callSiteName !== null) frame.function = callSiteName;
  if (position.context) {
    frame.pre_context = position.context.pre;
    frame.context_line = position.context.line;
    frame.post_context = position.context.post;
  } else {
    delete frame.pre_context;
    delete frame.context_line;
    delete frame.post_context;
  }
  const data: FrameData = { symbolicated: true, resolved_with: map.resolvedWith, sourcemap: map.url };
  if (missingSource) data.unresolved = missingSource;
  frame.data = data as unknown as JsonObject;
}

export function applyUnresolved(frame: JsonObject, reason: SourceMapNote): void {
  const data: FrameData = { symbolicated: false, unresolved: reason };
  frame.data = data as unknown as JsonObject;
}
