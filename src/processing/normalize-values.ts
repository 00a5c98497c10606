/**
 * Shape coercion shared by the event normaliser. SDK payloads are untrusted JSON: every reader here
 * takes `unknown`, returns a clean value or `undefined`, and never throws — the same stance as Relay,
 * which corrects or drops bad fields and records why instead of rejecting the event.
 */
import { EVENT_LIMITS } from "./limits";
import type { ProcessingNote } from "./types";

export type JsonObject = Record<string, unknown>;

/**
 * Collects what normalisation corrected or dropped, as Sentry's `errors` list on the event, and how
 * many items each limit cut (`trimmed`, by field path), as Sentry's `_meta` remarks record them.
 */
export class Notes {
  readonly list: ProcessingNote[] = [];
  readonly trimmed: Record<string, number> = {};
  private dropped = 0;

  /**
   * `value` is kept only when it is a small scalar, so junk payloads cannot bloat the notes; past
   * `EVENT_LIMITS.notes` they are only counted (10,000 bad tags would otherwise be 10,000 notes).
   */
  add(type: string, name: string, value?: unknown): void {
    if (this.list.length >= EVENT_LIMITS.notes) {
      if (this.dropped++ === 0) this.list.push({ type: "too_many_notes", name: "errors" });
      (this.list[this.list.length - 1] as ProcessingNote).value = this.dropped;
      return;
    }
    const note: ProcessingNote = { type, name };
    if (typeof value === "string") note.value = clip(value, 200);
    else if (typeof value === "number" || typeof value === "boolean") note.value = value;
    this.list.push(note);
  }

  /** `count` items of `name` were cut by a limit (EVENT_LIMITS). */
  trim(name: string, count: number): void {
    if (count <= 0) return;
    this.trimmed[name] = (this.trimmed[name] ?? 0) + count;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Relay trims over-long strings instead of rejecting them; "..." marks the cut as it does. */
export function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 3)}...` : value;
}

/** Strings as given, numbers and booleans stringified (SDKs send `id: 7`); anything else is absent. */
export function stringOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value);
  return undefined;
}

/** A trimmed, clipped, non-empty string field; wrong types are noted and dropped. */
export function textField(value: unknown, max: number, name: string, notes: Notes): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = stringOf(value)?.trim();
  if (text === undefined) {
    notes.add("invalid_data", name, value);
    return undefined;
  }
  return text === "" ? undefined : clip(text, max);
}

/** Non-negative integer (line and column numbers), or absent. */
export function naturalOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function boolOf(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

/**
 * `{values: [...]}` or a bare list — the two forms the protocol allows for exception and breadcrumbs.
 * Absent is an empty list; any other shape is an empty list with a note.
 */
export function valuesOf(value: unknown, name: string, notes: Notes): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isObject(value) && Array.isArray(value.values)) return value.values;
  notes.add("invalid_data", name);
  return [];
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * Unix seconds from an RFC 3339 string or a number (also a numeric string). The fraction is parsed by
 * hand because `Date.parse` keeps only milliseconds, and a missing offset means UTC as in Relay
 * (`Date.parse` would read it as local time).
 */
export function timestampOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    // "999…9" (hundreds of digits) parses to Infinity: not a time.
    const seconds = Number(text);
    return Number.isFinite(seconds) ? seconds : undefined;
  }
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, date, time, fraction, zone] = match;
  const offset = !zone || zone.toUpperCase() === "Z" ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const whole = Date.parse(`${date}T${time}${offset}`);
  if (Number.isNaN(whole)) return undefined;
  return whole / 1000 + (fraction ? Number(`0${fraction}`) : 0);
}

const MAX_STRING = 8192;

/** What is left of one databag's size (estimated JSON bytes), and how many entries were cut. */
export interface BagBudget {
  bytes: number;
  dropped: number;
}

export function bagBudget(): BagBudget {
  return { bytes: EVENT_LIMITS.bagBytes, dropped: 0 };
}

/**
 * Free-form data (extra, contexts, vars, breadcrumb data) kept JSON-safe and bounded: Relay trims
 * such "databags" by depth and estimated size rather than dropping the event. Entries past the entry
 * limit or the byte budget are left out and counted in `budget.dropped`.
 */
export function databag(value: unknown, depth = 0, budget: BagBudget = bagBudget()): unknown {
  if (typeof value === "string") {
    const text = clip(value, MAX_STRING);
    budget.bytes -= text.length + 2;
    return text;
  }
  budget.bytes -= 8;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || value === null) return value;
  if (depth >= EVENT_LIMITS.bagDepth) return Array.isArray(value) || isObject(value) ? "[trimmed]" : null;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    const count = Math.min(value.length, EVENT_LIMITS.bagEntries);
    let i = 0;
    for (; i < count && budget.bytes > 0; i++) out.push(databag(value[i], depth + 1, budget));
    budget.dropped += value.length - i;
    return out;
  }
  if (isObject(value)) {
    const out: JsonObject = {};
    // Indexing the key list: entries() and slice() would allocate a pair per key and a second array.
    const keys = Object.keys(value);
    const count = Math.min(keys.length, EVENT_LIMITS.bagEntries);
    let i = 0;
    for (; i < count && budget.bytes > 0; i++) {
      const key = keys[i]!;
      budget.bytes -= key.length + 3;
      setOwn(out, key, databag(value[key], depth + 1, budget));
    }
    budget.dropped += keys.length - i;
    return out;
  }
  return null;
}

/** A databag whose cut entries are counted under `name` in the notes' `trimmed` map. */
export function noteBag(value: unknown, name: string, notes: Notes, budget: BagBudget = bagBudget()): unknown {
  const dropped = budget.dropped;
  const out = databag(value, 0, budget);
  notes.trim(name, budget.dropped - dropped);
  return out;
}

/** An object databag, or absent (noted) when the field holds something else. */
export function objectBag(value: unknown, name: string, notes: Notes, budget?: BagBudget): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    notes.add("invalid_data", name, value);
    return undefined;
  }
  return noteBag(value, name, notes, budget) as JsonObject;
}

/**
 * `out[key] = value` that keeps a "__proto__" key (JSON.parse makes it an own key) as data: plain
 * assignment would set the object's prototype instead, or drop the value.
 */
export function setOwn(out: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Drops keys whose value is `undefined`, so normalised objects compare and serialise cleanly. */
export function compact<T extends object>(value: T): T {
  // A plain loop: this runs for every frame of every event, and entries/filter/fromEntries allocate thrice.
  const result: Record<string, unknown> = {};
  for (const key in value) {
    const item = value[key];
    if (item !== undefined) result[key] = item;
  }
  return result as T;
}
