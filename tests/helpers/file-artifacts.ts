/**
 * A small file-backed ArtifactLookup for the resolver's unit tests, which exercise resolution
 * without a database: a directory with `manifest.json` (one entry per uploaded file) and the bytes
 * under `content/<sha1>`. Real files, real reads. The server itself reads storage.artifacts.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ArtifactKind, ArtifactLookup, StoredArtifact } from "../../src/model";

interface ManifestEntry {
  projectId: string;
  artifact: StoredArtifact;
}

export interface ArtifactUpload {
  projectId: string;
  url: string;
  kind: ArtifactKind;
  bytes: Buffer | string;
  debugId?: string | null;
  sourceMapRef?: string | null;
  origin?: StoredArtifact["origin"];
}

const manifestOf = (dir: string) => path.join(dir, "manifest.json");

function readManifest(dir: string): ManifestEntry[] {
  return existsSync(manifestOf(dir)) ? (JSON.parse(readFileSync(manifestOf(dir), "utf8")) as ManifestEntry[]) : [];
}

/** Stores the files (bytes once per sha1) and adds them to the manifest; returns their records. */
export function addArtifacts(dir: string, uploads: ArtifactUpload[]): StoredArtifact[] {
  mkdirSync(path.join(dir, "content"), { recursive: true });
  const manifest = readManifest(dir);
  const added = uploads.map((upload): StoredArtifact => {
    const bytes = Buffer.from(upload.bytes);
    const sha1 = createHash("sha1").update(bytes).digest("hex");
    writeFileSync(path.join(dir, "content", sha1), bytes);
    const artifact: StoredArtifact = {
      sha1,
      url: upload.url,
      kind: upload.kind,
      debugId: upload.debugId ?? null,
      sourceMapRef: upload.sourceMapRef ?? null,
      size: bytes.length,
      origin: upload.origin ?? { kind: "bundle", bundleId: "bundle-1" },
    };
    manifest.push({ projectId: upload.projectId, artifact });
    return artifact;
  });
  writeFileSync(manifestOf(dir), JSON.stringify(manifest));
  return added;
}

export function fileArtifactLookup(dir: string): ArtifactLookup & { calls: string[] } {
  const calls: string[] = [];
  const of = (projectId: string) => readManifest(dir).filter((entry) => entry.projectId === projectId).map((entry) => entry.artifact);
  return {
    calls,
    async byDebugId(projectId, debugId) {
      calls.push(`byDebugId ${debugId}`);
      return of(projectId).filter((artifact) => artifact.debugId === debugId.toLowerCase());
    },
    async byReleaseUrl(projectId, release, dist, urls) {
      calls.push(`byReleaseUrl ${release} ${dist ?? "-"} ${urls.join(" ")}`);
      return of(projectId).filter(
        (artifact) =>
          urls.includes(artifact.url) &&
          ((artifact.origin.kind === "release_file" && artifact.origin.release === release && (artifact.origin.dist === null || artifact.origin.dist === dist)) ||
            (artifact.origin.kind === "bundle" && bundleRelease(dir, artifact.origin.bundleId) === release)),
      );
    },
    async content(sha1) {
      calls.push(`content ${sha1}`);
      const file = path.join(dir, "content", sha1);
      return existsSync(file) ? readFile(file) : null;
    },
    async hasArtifacts(projectId) {
      calls.push(`hasArtifacts ${projectId}`);
      return of(projectId).length > 0;
    },
  };
}

/** Bundles uploaded with `--release` are bound to it: `releases.json` maps bundle id → release. */
function bundleRelease(dir: string, bundleId: string): string | undefined {
  const file = path.join(dir, "releases.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)[bundleId] : undefined;
}

export function bindBundleToRelease(dir: string, bundleId: string, release: string): void {
  const file = path.join(dir, "releases.json");
  const releases = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  releases[bundleId] = release;
  writeFileSync(file, JSON.stringify(releases));
}

