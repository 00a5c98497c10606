/**
 * After the source-map scenario: a few stored events read back through the API, to show their
 * frames were resolved (original file, line, source lines), not just acknowledged.
 */
import { isObject } from "../../src/processing/normalize-values";

export interface FrameCheck {
  frames: number;
  /** Frames whose file is one of the synthetic app's modules, with a source line from sourcesContent. */
  resolved: number;
  example: string;
}

/** The frames of an API event's stack traces (`stacktrace`, not the minified `rawStacktrace`). */
export function framesOf(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) {
    for (const item of value) framesOf(item, out);
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "stacktrace" && isObject(child) && Array.isArray(child.frames)) out.push(...child.frames.filter(isObject));
      else if (key !== "rawStacktrace" && key !== "raw_stacktrace") framesOf(child, out);
    }
  }
  return out;
}

/** Whether an API frame points into an original module of the synthetic app (`m<N>.ts` or `shared.ts`) and carries its source line. */
export function isResolvedFrame(frame: Record<string, unknown>): boolean {
  const file = typeof frame.filename === "string" ? frame.filename : "";
  const context = frame.context;
  return /(^|\/)(m\d+|shared)\.ts$/.test(file) && Array.isArray(context) && context.length > 0;
}

export async function checkStoredEvents(baseUrl: string, token: string, slugs: { org: string; project: string }, eventIds: string[]): Promise<FrameCheck> {
  const check: FrameCheck = { frames: 0, resolved: 0, example: "" };
  for (const id of eventIds) {
    const response = await fetch(`${baseUrl}/api/0/projects/${slugs.org}/${slugs.project}/events/${id}/`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`event ${id}: ${response.status} ${await response.text()}`);
    const frames = framesOf(await response.json());
    check.frames += frames.length;
    for (const frame of frames) {
      if (!isResolvedFrame(frame)) continue;
      check.resolved++;
      check.example ||= `${String(frame.function)} in ${String(frame.filename)}:${String(frame.lineNo)}:${String(frame.colNo)}`;
    }
  }
  return check;
}
