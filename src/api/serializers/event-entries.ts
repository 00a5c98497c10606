/**
 * The `entries` of Sentry's event JSON: one `{type, data}` per interface, in Sentry's display order
 * (message, exception, breadcrumbs, request), with the camelCase keys its `get_api_context` methods
 * use. Exception values stay oldest → newest and frames caller → callee, as Sentry stores and serves
 * them; the UI reverses them for display, the API does not.
 */
import type {
  Breadcrumb,
  EventRequest,
  ExceptionValue,
  FrameData,
  NormalizedEvent,
  StackFrame,
  Stacktrace,
} from "../../processing/types";

export interface FrameJson {
  filename: string | null;
  absPath: string | null;
  module: string | null;
  package: string | null;
  platform: string | null;
  instructionAddr: string | null;
  symbolAddr: null;
  function: string | null;
  rawFunction: string | null;
  symbol: null;
  context: [number, string][];
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
  trust: null;
  errors: null;
  vars: Record<string, unknown> | null;
  /** Source-map resolution: `symbolicated`, `resolved_with`, `sourcemap`, and `unresolved` (why not). */
  data: FrameData | null;
}

export type EntryJson =
  | { type: "message"; data: { formatted: string; message: string; params: unknown[] | null } }
  | { type: "exception"; data: { values: ExceptionValueJson[]; hasSystemFrames: boolean; excOmitted: null } }
  | { type: "breadcrumbs"; data: { values: BreadcrumbJson[] } }
  | { type: "request"; data: RequestJson };

export interface ExceptionValueJson {
  type: string | null;
  value: string | null;
  module: string | null;
  mechanism: ExceptionValue["mechanism"] | null;
  threadId: null;
  stacktrace: { frames: FrameJson[]; framesOmitted: null; registers: null; hasSystemFrames: boolean } | null;
  /** The frames as sent, when source maps resolved `stacktrace`. */
  rawStacktrace: { frames: FrameJson[]; framesOmitted: null; registers: null; hasSystemFrames: boolean } | null;
}

export interface BreadcrumbJson {
  type: string;
  timestamp: string;
  level: string;
  message: string | null;
  category: string | null;
  data: Record<string, unknown> | null;
  event_id: null;
}

export interface RequestJson {
  url: string | null;
  method: string | null;
  query: [string, string][];
  fragment: null;
  data: unknown;
  headers: [string, string][];
  cookies: [string, string][];
  env: Record<string, unknown> | null;
  inferredContentType: string | null;
}

/** Sentry's `get_context`: source lines around the frame's line as `[[lineno, line], ...]`. */
function sourceContext(frame: StackFrame): [number, string][] {
  const { lineno, context_line: line, pre_context: pre = [], post_context: post = [] } = frame;
  if (lineno === undefined || (line === undefined && pre.length === 0 && post.length === 0)) return [];
  const lines = [...pre, ...(line === undefined ? [] : [line]), ...post];
  const first = lineno - pre.length;
  return lines.map((text, index): [number, string] => [first + index, text]);
}

function serializeFrame(frame: StackFrame): FrameJson {
  return {
    filename: frame.filename ?? null,
    absPath: frame.abs_path ?? null,
    module: frame.module ?? null,
    package: frame.package ?? null,
    platform: frame.platform ?? null,
    instructionAddr: frame.instruction_addr ?? null,
    symbolAddr: null,
    function: frame.function ?? null,
    rawFunction: frame.raw_function ?? null,
    symbol: null,
    context: sourceContext(frame),
    lineNo: frame.lineno ?? null,
    colNo: frame.colno ?? null,
    inApp: frame.in_app ?? false,
    trust: null,
    errors: null,
    vars: frame.vars ?? null,
    data: frame.data ?? null,
  };
}

// Sentry names this flag oddly: it is true when the stack mixes in a frame that is in-app.
const hasSystemFrames = (stacktrace: Stacktrace | undefined) =>
  stacktrace?.frames.some((frame) => frame.in_app === true) ?? false;

function serializeException(value: ExceptionValue): ExceptionValueJson {
  return {
    type: value.type ?? null,
    value: value.value ?? null,
    module: value.module ?? null,
    mechanism: value.mechanism ?? null,
    threadId: null,
    stacktrace: value.stacktrace
      ? {
          frames: value.stacktrace.frames.map(serializeFrame),
          framesOmitted: null,
          registers: null,
          hasSystemFrames: hasSystemFrames(value.stacktrace),
        }
      : null,
    rawStacktrace: value.raw_stacktrace
      ? {
          frames: value.raw_stacktrace.frames.map(serializeFrame),
          framesOmitted: null,
          registers: null,
          hasSystemFrames: hasSystemFrames(value.raw_stacktrace),
        }
      : null,
  };
}

function serializeBreadcrumb(crumb: Breadcrumb): BreadcrumbJson {
  return {
    type: crumb.type ?? "default",
    timestamp: new Date(crumb.timestamp * 1000).toISOString(),
    level: crumb.level ?? "info",
    message: crumb.message ?? null,
    category: crumb.category ?? null,
    data: crumb.data ?? null,
    event_id: null,
  };
}

function cookiePairs(cookies: string | undefined): [string, string][] {
  if (!cookies) return [];
  return cookies
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part): [string, string] => {
      const at = part.indexOf("=");
      return at === -1 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
    });
}

function serializeRequest(request: EventRequest): RequestJson {
  const headers = request.headers ?? [];
  const contentType = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? null;
  return {
    url: request.url ?? null,
    method: request.method ?? null,
    query: [...new URLSearchParams(request.query_string ?? "")],
    fragment: null,
    data: request.data ?? null,
    headers,
    cookies: cookiePairs(request.cookies),
    env: request.env ?? null,
    inferredContentType: contentType,
  };
}

export function eventEntries(event: NormalizedEvent): EntryJson[] {
  const entries: EntryJson[] = [];
  if (event.logentry) {
    const { formatted, message, params } = event.logentry;
    entries.push({ type: "message", data: { formatted, message, params: params ?? null } });
  }
  if (event.exception.length > 0) {
    entries.push({
      type: "exception",
      data: {
        values: event.exception.map(serializeException),
        hasSystemFrames: event.exception.some((value) => hasSystemFrames(value.stacktrace)),
        excOmitted: null,
      },
    });
  }
  if (event.breadcrumbs.length > 0) {
    entries.push({ type: "breadcrumbs", data: { values: event.breadcrumbs.map(serializeBreadcrumb) } });
  }
  if (event.request) entries.push({ type: "request", data: serializeRequest(event.request) });
  return entries;
}
