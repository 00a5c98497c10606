/**
 * Answers lookups from a cache of parsed maps and the bytes sent along: the source-map thread's
 * work (sourcemap.thread.ts), a plain function so tests can run it without a thread.
 */
import { MapCache, type CachedMap } from "./map-cache";
import { ParsedMap } from "./parsed-map";
import type { LookupAnswer, MapContent, MapLookup } from "./sourcemap.protocol";

export function answerLookups(cache: MapCache, lookups: MapLookup[], contents: MapContent[]): LookupAnswer[] {
  const sent = new Map<string, CachedMap>();
  for (const content of contents) {
    let entry: CachedMap;
    try {
      entry = { kind: "map", map: ParsedMap.parse(content.bytes) };
    } catch (error) {
      entry = { kind: "invalid", reason: (error as Error).message };
    }
    sent.set(content.sha1, entry);
    cache.set(content.sha1, entry);
  }
  return lookups.map((lookup): LookupAnswer => {
    // The sent one first: one larger than the whole cache is not kept there, but serves this request.
    const entry = sent.get(lookup.sha1) ?? cache.get(lookup.sha1);
    if (!entry) return { kind: "missing" };
    if (entry.kind === "invalid") return { kind: "invalid", reason: entry.reason };
    return { kind: "resolved", positions: lookup.positions.map(({ line, column }) => entry.map.resolve(line, column)) };
  });
}
