/**
 * An error event's JSON as ingest needs it. Ingest stores the SDK's text as it came and normalises
 * it in full when it is read (stored-event.ts, ADR 0005), so the parts only the event page shows —
 * breadcrumbs, extra, modules — need only be valid JSON at ingest, not objects. V8's `JSON.parse`
 * builds an object for every breadcrumb: 60 of the 76 µs a 24 KB event with 90 breadcrumbs takes.
 * SQLite's JSON parser, in C and in this process, checks the whole text in ≈ 25 µs and hands back
 * the rest without those parts for V8 to parse (≈ 10 µs). docs/performance.md has the figures.
 */
import Database, { type Statement } from "better-sqlite3";
import { isUtf8 } from "node:buffer";
import { jsonObjectOfText, type JsonObject } from "./telemetry-values";

/**
 * Below this size, or without breadcrumbs, V8 alone is faster: the detour costs ≈ 8 µs plus ≈ 1 µs
 * per KB, and pays only when breadcrumbs make up much of the text (break-even ≈ 20 breadcrumbs,
 * ≈ 8 KB, for @sentry/node's).
 */
const MIN_BYTES = 8 * 1024;
const BREADCRUMBS_KEY = Buffer.from('"breadcrumbs"');

/**
 * `json_valid(t, 1)` accepts strict RFC 8259 JSON only, the grammar `JSON.parse` accepts, nested at
 * most 1,000 deep. Whatever it refuses goes to `JSON.parse` as before, so an event is rejected or
 * accepted exactly as without this detour (tests/unit/event-json.test.ts compares the two on
 * mutated and truncated events).
 */
const DROP_DISPLAY_PARTS = `SELECT CASE WHEN json_valid(t, 1) THEN json_remove(t, '$.breadcrumbs', '$.extra', '$.modules') END
  FROM (SELECT CAST(? AS TEXT) AS t)`;

// Opened on first use, on the thread that processes envelopes: a statement with no
// tables, so the database holds nothing.
let dropDisplayParts: Statement<[Buffer], string | null> | undefined;

/** The event's fields but breadcrumbs, extra and modules, when that is cheaper than parsing all of it. */
export function eventJsonWithoutDisplayParts(payload: Buffer): JsonObject | undefined {
  if (payload.length < MIN_BYTES || payload.indexOf(BREADCRUMBS_KEY) < 0) return undefined;
  // Invalid UTF-8 goes the usual way, where decoding replaces it before parsing: SQLite would keep
  // the bytes, and the fields would then decode apart from the stored text's.
  if (!isUtf8(payload)) return undefined;
  let text: string | null | undefined;
  try {
    dropDisplayParts ??= new Database(":memory:").prepare<[Buffer], string | null>(DROP_DISPLAY_PARTS).pluck();
    text = dropDisplayParts.get(payload);
  } catch {
    // Only a failure of SQLite itself (out of memory) lands here: V8 decides, so a good event is never lost to it.
    return undefined;
  }
  const rest = typeof text === "string" ? jsonObjectOfText(text) : undefined;
  // json_remove drops the first of repeated keys only; JSON.parse keeps the last of them.
  return rest && !("breadcrumbs" in rest || "extra" in rest || "modules" in rest) ? rest : undefined;
}

/** The event item's JSON object for ingest, or undefined when the payload is not a JSON object. */
export function eventJsonOf(payload: Buffer, text: string): JsonObject | undefined {
  return eventJsonWithoutDisplayParts(payload) ?? jsonObjectOfText(text);
}
