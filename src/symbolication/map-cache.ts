/**
 * Parsed source maps by content hash, least recently used first out, under a memory bound
 * (SOURCEMAP_CACHE_MB). A map that cannot be parsed is remembered as such (a few bytes), so every
 * event of a broken upload does not fetch and parse it again.
 */
import type { ParsedMap } from "./parsed-map";

export type CachedMap = { kind: "map"; map: ParsedMap } | { kind: "invalid"; reason: string };

const INVALID_COST = 256;

export class MapCache {
  private readonly entries = new Map<string, CachedMap>();
  private used = 0;

  constructor(private readonly maxBytes: number) {}

  get(sha1: string): CachedMap | undefined {
    const entry = this.entries.get(sha1);
    if (entry) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.entries.delete(sha1);
      this.entries.set(sha1, entry);
    }
    return entry;
  }

  /** Keeps it unless it alone is larger than the whole bound (then it serves this request only). */
  set(sha1: string, entry: CachedMap): void {
    const cost = costOf(entry);
    if (cost > this.maxBytes) return;
    const old = this.entries.get(sha1);
    if (old) {
      this.entries.delete(sha1);
      this.used -= costOf(old);
    }
    this.entries.set(sha1, entry);
    this.used += cost;
    for (const [key, value] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(key);
      this.used -= costOf(value);
    }
  }

  get usedBytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}

function costOf(entry: CachedMap): number {
  return entry.kind === "map" ? entry.map.cost : INVALID_COST;
}
