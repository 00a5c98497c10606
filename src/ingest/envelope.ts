/**
 * Sentry envelope parser (docs/protocol.md §4), mirroring Relay's `relay-server/src/envelope/mod.rs`.
 *
 * An envelope is a header line, then items; each item is a header line and a payload:
 *
 *     {"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n         envelope header ({} is valid)
 *     {"type":"event"}\n                                        item header without `length`:
 *     {"message":"hello"}\n                                     payload runs to the next \n or EOF
 *     {"type":"attachment","length":11,"filename":"a.txt"}\n    item header with `length`:
 *     hello\nworld                                              exactly 11 bytes, then \n or EOF
 *
 * Headers are single JSON objects. Like Relay we read one JSON value (leading whitespace skipped)
 * and require the very next byte to be `\n` or EOF — so `{}\r\n` is invalid, while a `\r` inside an
 * implicit-length payload is data. `length` counts bytes, so we work on the Buffer and slice
 * payloads with `subarray` (no copy); only header lines are ever decoded to text.
 */
import { AppError } from "../errors";

export interface EnvelopeHeaders {
  event_id?: string;
  dsn?: string;
  sent_at?: string;
  sdk?: { name?: string; version?: string };
  [key: string]: unknown;
}

export interface ItemHeaders {
  type: string;
  length?: number;
  content_type?: string;
  filename?: string;
  [key: string]: unknown;
}

export interface EnvelopeItem {
  headers: ItemHeaders;
  payload: Buffer;
}

export interface Envelope {
  headers: EnvelopeHeaders;
  items: EnvelopeItem[];
}

const NEWLINE = 0x0a;
const UUID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
// Fatal: a header with invalid UTF-8 is invalid JSON to Relay; replacing bytes with U+FFFD would hide it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A framing error, turned into AppError("bad_request", "invalid event envelope", [cause]) at the top. */
class FramingError extends Error {}

type JsonObject = Record<string, unknown>;

function isJsonWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Finds the JSON object starting at the first non-whitespace byte at or after `offset` and
 * returns it with the index just past its closing brace. Brackets are matched outside strings to
 * find the end, then `JSON.parse` validates the slice.
 */
function readJsonObject(body: Buffer, offset: number, what: string): { value: JsonObject; end: number } {
  let start = offset;
  while (isJsonWhitespace(body[start])) start++;
  if (start >= body.length) throw new FramingError(`${what}: unexpected end of file`);
  if (body[start] !== 0x7b) throw new FramingError(`${what}: header is not a JSON object`);
  const fast = wholeLineObject(body, start);
  if (fast) return fast;
  let depth = 0;
  let inString = false;
  let end = -1;
  for (let i = start; i < body.length && end < 0; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === 0x5c) i++; // backslash: skip the escaped byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) end = i + 1;
  }
  if (end < 0) throw new FramingError(`${what}: unexpected end of file in header`);
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body.subarray(start, end)));
  } catch (error) {
    throw new FramingError(`${what}: invalid header JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new FramingError(`${what}: header is not a JSON object`);
  }
  if (end < body.length && body[end] !== NEWLINE) throw new FramingError(`${what}: missing newline after header`);
  return { value: value as JsonObject, end };
}

/**
 * The common case, without the byte-by-byte scan: the header is the whole line and ends with `}`.
 * A line that parses as JSON and ends with the brace has that brace as its object's end, so this
 * finds what the scan would; anything else (a multi-line header, bad UTF-8, invalid JSON) returns
 * null and the scan decides, with its precise error.
 */
function wholeLineObject(body: Buffer, start: number): { value: JsonObject; end: number } | null {
  const newline = body.indexOf(NEWLINE, start);
  const end = newline < 0 ? body.length : newline;
  if (body[end - 1] !== 0x7d) return null;
  try {
    return { value: JSON.parse(utf8.decode(body.subarray(start, end))) as JsonObject, end };
  } catch {
    return null;
  }
}

/**
 * Checks the keys our types promise. Like Relay's `Option<T>` fields, `null` means absent, so those
 * keys are dropped; unknown keys are kept untouched.
 */
function checkStrings(headers: JsonObject, keys: readonly string[], what: string): void {
  for (const key of keys) {
    if (headers[key] === null) delete headers[key];
    else if (key in headers && typeof headers[key] !== "string") throw new FramingError(`${what}: ${key} must be a string`);
  }
}

function toEnvelopeHeaders(headers: JsonObject): EnvelopeHeaders {
  checkStrings(headers, ["event_id", "dsn", "sent_at"], "envelope header");
  if (typeof headers.event_id === "string" && !UUID.test(headers.event_id)) {
    throw new FramingError("envelope header: event_id is not a UUID");
  }
  const sdk = headers.sdk;
  if (sdk === null) delete headers.sdk;
  else if (sdk !== undefined) {
    if (typeof sdk !== "object" || Array.isArray(sdk)) throw new FramingError("envelope header: sdk must be an object");
    checkStrings(sdk as JsonObject, ["name", "version"], "envelope header: sdk");
  }
  return headers;
}

function toItemHeaders(headers: JsonObject, what: string): ItemHeaders {
  if (!("type" in headers)) throw new FramingError(`${what}: missing item type`);
  if (typeof headers.type !== "string") throw new FramingError(`${what}: item type must be a string`);
  checkStrings(headers, ["content_type", "filename"], what);
  if (headers.length === null) delete headers.length;
  const length = headers.length;
  if (length !== undefined && !(typeof length === "number" && Number.isSafeInteger(length) && length >= 0)) {
    throw new FramingError(`${what}: length must be a non-negative integer`);
  }
  return headers as ItemHeaders;
}

/** Reads one item starting at `offset`; returns it and the offset of the next item (Relay's loop). */
function readItem(body: Buffer, offset: number, index: number): { item: EnvelopeItem; next: number } {
  const what = `item ${index}`;
  const header = readJsonObject(body, offset, what);
  const headers = toItemHeaders(header.value, what);
  // A final header without a newline has an empty payload.
  const payloadStart = Math.min(header.end + 1, body.length);
  let payloadEnd: number;
  if (headers.length !== undefined) {
    const left = body.length - payloadStart;
    if (headers.length > left) {
      throw new FramingError(`${what}: unexpected end of file (length ${headers.length}, ${left} bytes left)`);
    }
    payloadEnd = payloadStart + headers.length;
    if (payloadEnd < body.length && body[payloadEnd] !== NEWLINE) {
      throw new FramingError(`${what}: missing newline after payload`);
    }
  } else {
    const newline = body.indexOf(NEWLINE, payloadStart);
    payloadEnd = newline < 0 ? body.length : newline;
  }
  return { item: { headers, payload: body.subarray(payloadStart, payloadEnd) }, next: payloadEnd + 1 };
}

/**
 * Items one envelope may carry unless MAX_ENVELOPE_ITEMS says otherwise. SDKs send a handful (an
 * event and its attachments, a session aggregate, a span container); Relay's per-type counts are
 * 30 attachments, 100 sessions, 100 client reports. Without a bound a 58 KB gzip body of 524,288
 * one-byte items cost ≈ 0.9 s of main-thread time (issue 31).
 */
export const DEFAULT_MAX_ENVELOPE_ITEMS = 1000;

/**
 * Throws AppError("bad_request", "invalid event envelope", [cause]) on framing errors; AppError("bad_request","empty request body") when empty;
 * AppError("payload_too_large") as soon as item `maxItems + 1` starts, before reading it.
 */
export function parseEnvelope(body: Buffer, maxItems = DEFAULT_MAX_ENVELOPE_ITEMS): Envelope {
  if (body.length === 0) throw new AppError("bad_request", "empty request body");
  try {
    const header = readJsonObject(body, 0, "envelope header");
    const envelope: Envelope = { headers: toEnvelopeHeaders(header.value), items: [] };
    let offset = header.end + 1;
    while (offset < body.length) {
      if (envelope.items.length === maxItems) throw tooManyItems(maxItems);
      const { item, next } = readItem(body, offset, envelope.items.length + 1);
      envelope.items.push(item);
      offset = next;
    }
    return envelope;
  } catch (error) {
    if (error instanceof FramingError) throw new AppError("bad_request", "invalid event envelope", [error.message]);
    throw error;
  }
}

function tooManyItems(maxItems: number): AppError {
  return new AppError("payload_too_large", `envelope exceeded size limits: more than ${maxItems} items (MAX_ENVELOPE_ITEMS)`, [
    `an envelope may carry at most ${maxItems} items`,
  ]);
}

/** Parses only the first line as a JSON object (for DSN auth from the envelope header); null when it is not a JSON object. */
export function readEnvelopeHeader(body: Buffer): Record<string, unknown> | null {
  const newline = body.indexOf(NEWLINE);
  try {
    const value: unknown = JSON.parse(utf8.decode(body.subarray(0, newline < 0 ? body.length : newline)));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}
