/**
 * Turns a server-side exception into a Sentry event payload, as @sentry/node would, so that it goes
 * through the same normalise → group → store path as any SDK event.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { originalPosition } from "./source-maps";
import { routeNameOf, scrubAppPaths } from "./route-names";

export interface ServerErrorContext {
  /** Next.js's digest for errors rendered on the server; shown to the user on the fallback page. */
  digest?: string;
  path?: string;
  method?: string;
  routePath?: string;
  routeType?: string;
  /** Where it was caught, e.g. "next.onRequestError", "ingest", "process.unhandledRejection". */
  mechanism: string;
}

interface RawFrame {
  function?: string;
  filename: string;
  abs_path: string;
  lineno: number;
  colno: number;
  in_app: boolean;
  module?: string;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
}

const V8_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/;
const MAX_CAUSES = 5;

/** V8 stack lines (newest first) → Sentry frames (caller → callee). */
export function parseV8Stack(stack: string | undefined, root: string): RawFrame[] {
  const frames: RawFrame[] = [];
  for (const line of (stack ?? "").split("\n")) {
    const match = V8_FRAME.exec(line);
    if (!match) continue;
    const [, fn, location, lineno, colno] = match;
    const absPath = location!.startsWith("file://") ? new URL(location!).pathname : location!;
    const inApp = !absPath.includes("/node_modules/") && !absPath.startsWith("node:") && path.isAbsolute(absPath);
    const relative = absPath.startsWith(root + path.sep) ? path.relative(root, absPath) : absPath;
    // Bundled server code (.next/...) is mapped back to its source; V8's names there are minified.
    const original = relative.startsWith(".next/") ? originalPosition(absPath, Number(lineno), Number(colno), root) : null;
    if (original) {
      frames.push({ ...original, abs_path: absPath, module: path.basename(original.filename).replace(/\.[^.]+$/, "") });
      continue;
    }
    frames.push({
      ...(fn ? { function: fn.replace(/^async /, "") } : {}),
      filename: relative,
      abs_path: absPath,
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: inApp,
      module: path.basename(relative).replace(/\.[^.]+$/, ""),
    });
  }
  return frames.reverse();
}

function exceptionValues(error: unknown, root: string, mechanism: string) {
  const chain: unknown[] = [];
  for (let current: unknown = error; current !== undefined && chain.length <= MAX_CAUSES; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  // Sentry lists the chain oldest → newest: the deepest cause first, the thrown error last.
  return chain.reverse().map((item, index) => {
    const isError = item instanceof Error;
    return {
      type: isError ? item.name : "Error",
      // A message may quote a path of this app (with another organisation's slug): route names only.
      value: scrubAppPaths(isError ? item.message : String(item)),
      stacktrace: isError ? { frames: parseV8Stack(item.stack, root) } : undefined,
      mechanism: index === chain.length - 1 ? { type: mechanism, handled: false } : { type: "chained", handled: false },
    };
  });
}

export function serverErrorEvent(error: unknown, context: ServerErrorContext, meta: { release: string; root: string }) {
  const tags: Record<string, string> = { runtime: "node" };
  if (context.digest) tags.digest = context.digest;
  if (context.routePath) tags.route = context.routePath;
  if (context.routeType) tags["route.type"] = context.routeType;
  return {
    event_id: randomUUID().replace(/-/g, ""),
    timestamp: Date.now() / 1000,
    platform: "node",
    level: "error",
    logger: "periscope.server",
    release: meta.release,
    environment: "production",
    exception: { values: exceptionValues(error, meta.root, context.mechanism) },
    tags,
    // The route name, not the path: the monitoring project must not learn other organisations' slugs.
    ...(context.path ? { request: { url: routeNameOf(context.path), method: context.method } } : {}),
    contexts: { runtime: { name: "node", version: process.version } },
    sdk: { name: "periscope.server", version: meta.release.split("@")[1] ?? "0" },
  };
}
