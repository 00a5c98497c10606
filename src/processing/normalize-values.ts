/**
 * Shape coercion shared by the event normaliser. SDK payloads are untrusted JSON: every reader here
 * takes `unknown`, returns a clean value or `undefined`, and never throws — the same stance as Relay,
 * which corrects or drops bad fields and records why instead of rejecting the event.
 */
import type { ProcessingNote } from "./types";

export type JsonObject = Record<string, unknown>;

/** Collects what normalisation corrected or dropped, as Sentry's `errors` list on the event. */
export class Notes {
  readonly list: ProcessingNote[] = [];

  /** `value` is kept only when it is a small scalar, so junk payloads cannot bloat the notes. */
  add(type: string, name: string, value?: unknown): void {
    const note: ProcessingNote = { type, name };
    if (typeof value === "string") note.value = clip(value, 200);
    else if (typeof value === "number" || typeof value === "boolean") note.value = value;
    this.list.push(note);
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

const MAX_DEPTH = 6;
const MAX_ENTRIES = 200;
const MAX_STRING = 8192;

/**
 * Free-form data (extra, contexts, vars, breadcrumb data) kept JSON-safe and bounded: Relay trims
 * such "databags" by depth and size rather than dropping the event.
 */
export function databag(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clip(value, MAX_STRING);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || value === null) return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) || isObject(value) ? "[trimmed]" : null;
  if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((item) => databag(item, depth + 1));
  if (isObject(value)) {
    const out: JsonObject = {};
    // Indexing the key list: entries() and slice() would allocate a pair per key and a second array.
    const keys = Object.keys(value);
    const count = Math.min(keys.length, MAX_ENTRIES);
    for (let i = 0; i < count; i++) out[keys[i]!] = databag(value[keys[i]!], depth + 1);
    return out;
  }
  return null;
}

/** An object databag, or absent (noted) when the field holds something else. */
export function objectBag(value: unknown, name: string, notes: Notes): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    notes.add("invalid_data", name, value);
    return undefined;
  }
  return databag(value) as JsonObject;
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
