/**
 * How SQLite keeps an event's stored form (src/processing/stored-event.ts): as text when it is
 * small, deflated (a BLOB) from PACKED_FROM characters on. Breadcrumb-heavy events shrink ≈ 10×
 * (the 24 KB event of the benchmark to 2.3 KB), and on a database that grows by tens of MB a second
 * the bytes every commit writes to the WAL, and every checkpoint copies again, are what grows in
 * cost with it (docs/performance.md). Rows written before hold text; both forms are read.
 * PostgreSQL keeps text: it compresses large values itself (TOAST).
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Below this the bytes saved are few against zlib's cost: ≈ 8 µs per call before the first byte,
 * then ≈ 1.4 µs per KB (measured on Node 20; not tuned lower). In UTF-16 code units, what
 * `string.length` counts.
 */
export const PACKED_FROM = 8192;

/** Level 1: the benchmark's 24 KB event in ≈ 40 µs, 2.3 KB; higher levels gain little on JSON. */
export function packPayload(text: string): string | Buffer {
  return text.length < PACKED_FROM ? text : deflateRawSync(text, { level: 1 });
}

/** The stored form's text, from either form. */
export function unpackPayload(stored: string | Uint8Array): string {
  return typeof stored === "string" ? stored : inflateRawSync(stored).toString("utf8");
}
