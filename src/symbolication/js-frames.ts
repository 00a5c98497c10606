/**
 * Which frames of an SDK event the source-map resolver looks at, decided on the raw payload before
 * normalisation. Runs for every event on the ingest thread, so it only reads: no allocation, no
 * closures, so events without JavaScript frames pay nothing for resolution.
 */
import { isObject, type JsonObject } from "../processing/normalize-values";

const JS_PLATFORMS: ReadonlySet<string> = new Set(["javascript", "node"]);
/** Frames engines add for their own code: never in an uploaded bundle. */
const ENGINE_FILES: ReadonlySet<string> = new Set(["native", "[native code]", "<anonymous>"]);

/** The path a frame is looked up by: `abs_path`, else `filename` (Relay copies one to the other). */
export function framePathOf(frame: JsonObject): string | undefined {
  const path = typeof frame.abs_path === "string" && frame.abs_path !== "" ? frame.abs_path : frame.filename;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** A frame the resolver tries: JavaScript, with a file that could be a bundle and a line in it. */
export function isResolvableFrame(frame: JsonObject, eventPlatform: unknown): boolean {
  const platform = typeof frame.platform === "string" ? frame.platform : eventPlatform;
  if (typeof platform !== "string" || !JS_PLATFORMS.has(platform)) return false;
  if (typeof frame.lineno !== "number" || frame.lineno < 1) return false;
  const path = framePathOf(frame);
  return path !== undefined && !ENGINE_FILES.has(path) && !path.startsWith("node:");
}

/** The stack traces of an event's exceptions and threads, as sent (a list or `{values}` each). */
export function stacktracesOf(raw: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  for (const key of ["exception", "threads"] as const) {
    const container = raw[key];
    const values = Array.isArray(container) ? container : isObject(container) ? container.values : undefined;
    if (!Array.isArray(values)) continue;
    for (const value of values) {
      if (isObject(value) && isObject(value.stacktrace) && Array.isArray(value.stacktrace.frames)) out.push(value.stacktrace);
    }
  }
  return out;
}

/** Whether any exception or thread frame is one the resolver would try (allocation-free). */
export function hasResolvableFrames(raw: JsonObject): boolean {
  return containerHas(raw.exception, raw.platform) || containerHas(raw.threads, raw.platform);
}

function containerHas(container: unknown, platform: unknown): boolean {
  const values = Array.isArray(container) ? container : isObject(container) ? container.values : undefined;
  if (!Array.isArray(values)) return false;
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (!isObject(value) || !isObject(value.stacktrace)) continue;
    const frames = value.stacktrace.frames;
    if (!Array.isArray(frames)) continue;
    for (let j = 0; j < frames.length; j++) {
      const frame: unknown = frames[j];
      if (isObject(frame) && isResolvableFrame(frame, platform)) return true;
    }
  }
  return false;
}
