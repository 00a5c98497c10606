/**
 * The `exception` interface: `{values: [...]}` or a bare list, oldest → newest, frames caller → callee.
 * See https://develop.sentry.dev/sdk/data-model/event-payloads/exception/ and .../stacktrace/.
 */
import { bothEnds, EVENT_LIMITS } from "./limits";
import type { ExceptionValue, Mechanism, StackFrame, Stacktrace } from "./types";
import {
  boolOf,
  clip,
  compact,
  isObject,
  naturalOf,
  noteBag,
  Notes,
  objectBag,
  stringOf,
  textField,
  valuesOf,
  type JsonObject,
} from "./normalize-values";

const MAX_VALUE = 8192;
const MAX_CONTEXT_LINE = 1000;
const MAX_CONTEXT_LINES = 5;

export function normalizeExceptions(raw: unknown, notes: Notes): ExceptionValue[] {
  const out: ExceptionValue[] = [];
  const values = valuesOf(raw, "exception", notes);
  const { kept, omitted } = bothEnds(values, EVENT_LIMITS.exceptions);
  if (omitted) notes.trim("exception.values", omitted[1] - omitted[0]);
  const allowances = frameAllowances(kept);
  kept.forEach((item, keptIndex) => {
    const index = omitted && keptIndex >= omitted[0] ? keptIndex + omitted[1] - omitted[0] : keptIndex;
    const value = isObject(item) ? exceptionValue(item, `exception.values.${index}`, allowances[keptIndex]!, notes) : undefined;
    // Relay discards values with neither `type` nor `value`: there is nothing to show or group by.
    if (value && (value.type !== undefined || value.value !== undefined)) out.push(value);
    else notes.add("invalid_data", `exception.values.${index}`);
  });
  return out;
}

/**
 * How many frames each exception's stack may keep: the per-stack limit, within a budget for the
 * whole event that the newest exceptions (the thrown one last) draw on first.
 */
function frameAllowances(values: unknown[]): number[] {
  const allowances: number[] = new Array<number>(values.length).fill(0);
  let left = EVENT_LIMITS.framesPerEvent;
  for (let i = values.length - 1; i >= 0; i--) {
    const allowance = Math.min(EVENT_LIMITS.framesPerStack, left);
    allowances[i] = allowance;
    left -= Math.min(allowance, sentFrameCount(values[i]));
  }
  return allowances;
}

function sentFrameCount(value: unknown): number {
  const stacktrace = isObject(value) ? value.stacktrace : undefined;
  const frames = isObject(stacktrace) ? stacktrace.frames : stacktrace;
  return Array.isArray(frames) ? frames.length : 0;
}

function exceptionValue(raw: JsonObject, path: string, maxFrames: number, notes: Notes): ExceptionValue {
  const stacktrace = stacktraceOf(raw.stacktrace, `${path}.stacktrace`, maxFrames, notes);
  return compact<ExceptionValue>({
    type: textField(raw.type, 256, `${path}.type`, notes),
    value: textField(raw.value, MAX_VALUE, `${path}.value`, notes),
    module: textField(raw.module, 256, `${path}.module`, notes),
    stacktrace: stacktrace && stacktrace.frames.length > 0 ? stacktrace : undefined,
    mechanism: mechanismOf(raw.mechanism, `${path}.mechanism`, notes),
  });
}

/**
 * A stack longer than the limit keeps its first and last frames (the entry point and where it
 * failed) and says which were cut in `frames_omitted`, so the page can show "N frames omitted".
 */
function stacktraceOf(raw: unknown, path: string, maxFrames: number, notes: Notes): Stacktrace | undefined {
  if (raw === undefined || raw === null) return undefined;
  const frames = isObject(raw) ? raw.frames : raw;
  if (!Array.isArray(frames)) {
    notes.add("invalid_data", path);
    return undefined;
  }
  const { kept, omitted } = bothEnds(frames, maxFrames);
  if (omitted) notes.trim(`${path}.frames`, omitted[1] - omitted[0]);
  const out: StackFrame[] = [];
  kept.forEach((item, keptIndex) => {
    const index = omitted && keptIndex >= omitted[0] ? keptIndex + omitted[1] - omitted[0] : keptIndex;
    const frame = isObject(item) ? frameOf(item, `${path}.frames.${index}`, notes) : undefined;
    // A frame needs something to locate it by; Relay drops the rest.
    if (frame && (frame.filename ?? frame.function ?? frame.abs_path ?? frame.instruction_addr) !== undefined) {
      out.push(frame);
    }
  });
  if (out.length < kept.length) notes.add("invalid_data", `${path}.frames`, kept.length - out.length);
  return omitted ? { frames: out, frames_omitted: omitted } : { frames: out };
}

function frameOf(raw: JsonObject, path: string, notes: Notes): StackFrame {
  const field = (key: string, max = 1024) => textField(raw[key], max, `${path}.${key}`, notes);
  return compact<StackFrame>({
    filename: field("filename"),
    abs_path: field("abs_path"),
    function: field("function", 512),
    raw_function: field("raw_function", 512),
    module: field("module", 512),
    package: field("package"),
    platform: field("platform", 64),
    lineno: naturalOf(raw.lineno),
    colno: naturalOf(raw.colno),
    context_line: typeof raw.context_line === "string" ? clip(raw.context_line, MAX_CONTEXT_LINE) : undefined,
    // The lines nearest the crash line matter most: keep the end of pre_context, the start of post_context.
    pre_context: contextLines(raw.pre_context, (lines) => lines.slice(-MAX_CONTEXT_LINES)),
    post_context: contextLines(raw.post_context, (lines) => lines.slice(0, MAX_CONTEXT_LINES)),
    in_app: boolOf(raw.in_app),
    vars: isObject(raw.vars) ? (noteBag(raw.vars, `${path}.vars`, notes) as JsonObject) : undefined,
    instruction_addr: addressOf(raw.instruction_addr),
  });
}

function contextLines(raw: unknown, pick: (lines: unknown[]) => unknown[]): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  // Null lines stay as empty strings so the remaining lines keep their distance from context_line.
  return pick(raw).map((line) => clip(typeof line === "string" ? line : "", MAX_CONTEXT_LINE));
}

/** Native SDKs send addresses as "0x…" strings; some send plain integers, which Relay accepts too. */
function addressOf(raw: unknown): string | undefined {
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return `0x${raw.toString(16)}`;
  return typeof raw === "string" && /^0x[0-9a-f]+$/i.test(raw.trim()) ? raw.trim().toLowerCase() : undefined;
}

function mechanismOf(raw: unknown, path: string, notes: Notes): Mechanism | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    notes.add("invalid_data", path, raw);
    return undefined;
  }
  return compact<Mechanism>({
    // `type` is required by the protocol; "generic" is what SDKs use for manual capture.
    type: textField(raw.type, 128, `${path}.type`, notes) ?? "generic",
    handled: boolOf(raw.handled),
    synthetic: boolOf(raw.synthetic),
    description: textField(raw.description, 1024, `${path}.description`, notes),
    exception_id: naturalOf(raw.exception_id),
    parent_id: naturalOf(raw.parent_id),
    source: stringOf(raw.source),
    is_exception_group: boolOf(raw.is_exception_group),
    data: objectBag(raw.data, `${path}.data`, notes),
  });
}
