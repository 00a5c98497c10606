/**
 * Source-map artifacts uploaded by sentry-cli (artifact bundles and the older release files), as
 * the resolver reads them. Storage implements `ArtifactLookup`; the source-map resolver consumes it.
 * Bytes are stored once per content hash.
 */

export type ArtifactKind = "minified_source" | "source_map" | "source" | "other";

export interface StoredArtifact {
  /** SHA-1 hex of the file's bytes: the key its content is stored and cached under. */
  sha1: string;
  /** The URL as uploaded, e.g. "~/static/app.min.js" ("~" stands for any scheme and host). */
  url: string;
  kind: ArtifactKind;
  /** The file's debug id (lower-case UUID), from the bundle manifest's `debug-id` header; null when none. */
  debugId: string | null;
  /** A minified file's reference to its map (the `Sourcemap` header or `sourceMappingURL`), as uploaded. */
  sourceMapRef: string | null;
  size: number;
  /** Where it came from, for the "why was this frame not resolved" answers. */
  origin: { kind: "bundle"; bundleId: string } | { kind: "release_file"; release: string; dist: string | null };
}

export interface ArtifactLookup {
  /** Every artifact of the project's bundles that carries this debug id (the minified file and its map). */
  byDebugId(projectId: string, debugId: string): Promise<StoredArtifact[]>;
  /**
   * Artifacts bound to this release (and dist; null matches files uploaded without one) whose URL is
   * one of `urls` (the lookup candidates the resolver derives from a frame's abs_path).
   */
  byReleaseUrl(projectId: string, release: string, dist: string | null, urls: string[]): Promise<StoredArtifact[]>;
  /** Bytes by content hash; null when they are gone. */
  content(sha1: string): Promise<Buffer | null>;
  /** Whether the project has any artifact at all, so events of projects without maps skip resolution. */
  hasArtifacts(projectId: string): Promise<boolean>;
}
