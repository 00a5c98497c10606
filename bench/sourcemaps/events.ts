/**
 * Error events whose stack frames point into the scenario's minified bundle (bundle.ts), as
 * @sentry/browser sends them for a bundle built with debug ids: the captured browser fixture with
 * its stack trace replaced by frames at real positions of the bundle, and `debug_meta.images`
 * naming the bundle's debug id for the frames' `abs_path`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { decodedMappings, TraceMap } from "@jridgewell/trace-mapping";
import { makeTemplate, type Template } from "../load";

const fixtures = path.resolve(import.meta.dirname, "..", "..", "tests", "fixtures", "envelopes");

/** Where the bench "serves" the bundle: the frames' abs_path, matched against debug_meta's code_file. */
export const BUNDLE_URL = "https://bench.invalid/static/app.min.js";

/** A position in the minified file, 1-based as frames count. */
export interface MinifiedPosition {
  line: number;
  column: number;
}

/**
 * `count` positions spread evenly over the map's named segments (call sites and declarations: where
 * real frames point), so a run looks up positions all over the map, not one spot.
 */
export function namedPositions(mapJson: string, count: number): MinifiedPosition[] {
  const mappings = decodedMappings(new TraceMap(mapJson));
  const named: MinifiedPosition[] = [];
  mappings.forEach((segments, line) => {
    for (const segment of segments) if (segment.length === 5) named.push({ line: line + 1, column: segment[0] + 1 });
  });
  if (named.length === 0) throw new Error("namedPositions: the map has no named segments");
  const step = named.length / count;
  return Array.from({ length: count }, (_, index) => named[Math.floor(index * step)]!);
}

/** The envelope's three lines (header, item header, event), as captured. */
function fixtureLines(name: string): [string, string, string] {
  const lines = readFileSync(path.join(fixtures, `${name}.envelope`), "utf8").split("\n");
  return [lines[0]!, lines[1]!, lines[2]!];
}

/**
 * One template per stack: `frames` positions each (the last is where it threw), release `release`,
 * and the bundle's debug id. Event ids are the template's placeholder (makeTemplate replaces them).
 */
export function bundleEventTemplates(positions: MinifiedPosition[], options: { debugId: string; release: string; frames: number; label: string }): Template[] {
  const [headerLine, itemLine, eventLine] = fixtureLines("browser-uncaught-error");
  const templates: Template[] = [];
  for (let start = 0; start + options.frames <= positions.length; start += options.frames) {
    const event = JSON.parse(eventLine) as Record<string, unknown> & { exception: { values: { stacktrace: unknown }[] } };
    event.release = options.release;
    event.exception.values[0]!.stacktrace = {
      frames: positions.slice(start, start + options.frames).map((position, index) => ({
        filename: BUNDLE_URL,
        abs_path: BUNDLE_URL,
        function: `x${index}`,
        in_app: true,
        lineno: position.line,
        colno: position.column,
      })),
    };
    event.debug_meta = { images: [{ type: "sourcemap", code_file: BUNDLE_URL, debug_id: options.debugId }] };
    const text = `${headerLine}\n${itemLine}\n${JSON.stringify(event)}\n`;
    templates.push({ ...makeTemplate(Buffer.from(text, "utf8")), label: options.label });
  }
  return templates;
}

/** One of `a`, one of `b`, in turn, until both have been used up at least once (a mix half of each). */
export function alternate<T>(a: T[], b: T[]): T[] {
  if (a.length === 0 || b.length === 0) throw new Error("alternate: both lists need an entry");
  const out: T[] = [];
  for (let index = 0; index < Math.max(a.length, b.length); index++) out.push(a[index % a.length]!, b[index % b.length]!);
  return out;
}
