/**
 * Which uploaded map resolves a frame's file, on the main thread through ArtifactLookup (metadata
 * queries only; map bytes are fetched later, and only when the source-map thread lacks them).
 * First by debug id (the event's `debug_meta.images` of type "sourcemap", matched on the frame's
 * path), else by release + dist + URL, following the minified file's reference to its map.
 * A failure is a SourceMapNote that names what was looked for and where.
 */
import { createHash } from "node:crypto";
import type { ArtifactLookup, StoredArtifact } from "../model";
import type { FrameData, SourceMapNote } from "../processing/types";
import { resolveUrl, urlCandidates } from "./urls";

export type LocatedMap =
  | {
      ok: true;
      sha1: string;
      /** The map's URL, for the frame's `data.sourcemap` and resolving its `sources`. */
      url: string;
      resolvedWith: NonNullable<FrameData["resolved_with"]>;
      /** An inline (`data:`) map's bytes: there is no artifact to fetch them from. */
      inline?: Buffer;
    }
  | { ok: false; note: SourceMapNote };

export interface EventKeys {
  projectId: string;
  release: string | null;
  dist: string | null;
  /** code_file → debug_id, from `debug_meta.images` of type "sourcemap". */
  debugIds: Map<string, string>;
}

const SOURCE_MAPPING_URL = /\/\/[#@][ \t]*sourceMappingURL=[ \t]*(\S+)[ \t]*$/gm;
/** sourceMappingURL is the file's last comment; only its tail is searched. */
const TAIL_BYTES = 4096;

export class MapLocator {
  /** Minified file sha1 → its sourceMappingURL (or null): a file's tail is read once. */
  private readonly refs = new Map<string, string | null>();

  constructor(private readonly artifacts: ArtifactLookup) {}

  async locate(path: string, keys: EventKeys): Promise<LocatedMap> {
    const debugId = keys.debugIds.get(path);
    let debugNote: SourceMapNote | null = null;
    if (debugId !== undefined) {
      const found = await this.artifacts.byDebugId(keys.projectId, debugId);
      const map = found.find((artifact) => artifact.kind === "source_map");
      if (map) return { ok: true, sha1: map.sha1, url: map.url, resolvedWith: "debug-id" };
      debugNote =
        found.length === 0
          ? note("js_no_source", `no bundle with debug id ${debugId}`, { url: path, debug_id: debugId })
          : note("js_no_source", `bundle found but no map for this file: debug id ${debugId} is in ${bundlesOf(found)} without a source map`, {
              url: path,
              debug_id: debugId,
              bundles: bundleIdsOf(found),
            });
    }
    // As Sentry does: a debug id that found nothing still leaves the release lookup.
    const byRelease = await this.byRelease(path, keys);
    if (byRelease.ok || !debugNote) return byRelease;
    return { ok: false, note: debugNote };
  }

  private async byRelease(path: string, keys: EventKeys): Promise<LocatedMap> {
    if (keys.release === null) {
      return { ok: false, note: note("js_no_source", `no debug id for this file and the event names no release`, { url: path }) };
    }
    const release = keys.release;
    const candidates = urlCandidates(path);
    const found = await this.artifacts.byReleaseUrl(keys.projectId, release, keys.dist, candidates);
    const minified = firstByUrl(found.filter((artifact) => artifact.kind !== "source_map"), candidates);
    const where = { url: path, release, dist: keys.dist };
    if (!minified) {
      const mapOnly = firstByUrl(found, candidates);
      if (mapOnly) return { ok: true, sha1: mapOnly.sha1, url: mapOnly.url, resolvedWith: resolvedWithOf(mapOnly) };
      return {
        ok: false,
        note: note("js_no_source", `release ${release}${distText(keys.dist)} has no artifact for this URL (tried ${candidates.join(", ")})`, {
          ...where,
          tried: candidates,
        }),
      };
    }
    const ref = minified.sourceMapRef ?? (await this.refOf(minified));
    if (ref === null) {
      if (minified.debugId !== null) {
        const map = (await this.artifacts.byDebugId(keys.projectId, minified.debugId)).find((artifact) => artifact.kind === "source_map");
        if (map) return { ok: true, sha1: map.sha1, url: map.url, resolvedWith: "debug-id" };
      }
      return {
        ok: false,
        note: note("js_no_source", `bundle found but no map for this file: ${minified.url} names no source map (no Sourcemap header or sourceMappingURL)`, {
          ...where,
          artifact: minified.url,
        }),
      };
    }
    if (ref.startsWith("data:")) {
      const inline = inlineMap(ref);
      if (!inline) return { ok: false, note: note("js_invalid_source", `${minified.url} has an inline source map that cannot be decoded`, { ...where, artifact: minified.url }) };
      return { ok: true, sha1: createHash("sha1").update(inline).digest("hex"), url: minified.url, resolvedWith: resolvedWithOf(minified), inline };
    }
    const mapUrl = resolveUrl(minified.url, ref);
    const mapCandidates = mapUrl === null ? [] : urlCandidates(mapUrl);
    const maps = mapCandidates.length === 0 ? [] : await this.artifacts.byReleaseUrl(keys.projectId, release, keys.dist, mapCandidates);
    const map = firstByUrl(maps, mapCandidates);
    if (!map) {
      return {
        ok: false,
        note: note(
          "js_no_source",
          `bundle found but no map for this file: ${minified.url} names ${ref}, and release ${release}${distText(keys.dist)} has no artifact at ${mapUrl ?? ref}`,
          { ...where, artifact: minified.url, sourcemap: mapUrl ?? ref },
        ),
      };
    }
    return { ok: true, sha1: map.sha1, url: map.url, resolvedWith: resolvedWithOf(map) };
  }

  private async refOf(minified: StoredArtifact): Promise<string | null> {
    const known = this.refs.get(minified.sha1);
    if (known !== undefined) return known;
    const bytes = await this.artifacts.content(minified.sha1);
    const tail = bytes ? bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString("utf8") : "";
    let ref: string | null = null;
    for (const match of tail.matchAll(SOURCE_MAPPING_URL)) ref = match[1] ?? null;
    if (this.refs.size >= 10_000) this.refs.clear();
    this.refs.set(minified.sha1, ref);
    return ref;
  }
}

export function note(type: SourceMapNote["type"], reason: string, data: SourceMapNote["data"]): SourceMapNote {
  return { type, reason, data };
}

const distText = (dist: string | null) => (dist === null ? "" : ` (dist ${dist})`);

function firstByUrl(artifacts: StoredArtifact[], candidates: string[]): StoredArtifact | undefined {
  for (const url of candidates) {
    const match = artifacts.find((artifact) => artifact.url === url);
    if (match) return match;
  }
  return undefined;
}

function resolvedWithOf(artifact: StoredArtifact): "release" | "release-old" {
  return artifact.origin.kind === "release_file" ? "release-old" : "release";
}

function bundleIdsOf(artifacts: StoredArtifact[]): string[] {
  return [...new Set(artifacts.flatMap((artifact) => (artifact.origin.kind === "bundle" ? [artifact.origin.bundleId] : [])))];
}

function bundlesOf(artifacts: StoredArtifact[]): string {
  const ids = bundleIdsOf(artifacts);
  return ids.length === 0 ? "the uploaded files" : `bundle ${ids.join(", ")}`;
}

/** The bytes of a `data:application/json;base64,…` (or URL-encoded) source map. */
function inlineMap(ref: string): Buffer | null {
  const comma = ref.indexOf(",");
  if (comma === -1) return null;
  const meta = ref.slice(5, comma);
  const body = ref.slice(comma + 1);
  try {
    return meta.endsWith(";base64") ? Buffer.from(body, "base64") : Buffer.from(decodeURIComponent(body), "utf8");
  } catch {
    return null;
  }
}
