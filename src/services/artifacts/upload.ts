/**
 * sentry-cli's upload protocol: chunk-upload options, chunks (SHA-1 checked, gzip undone), the
 * artifact bundle assembled from them, and the older per-release file upload.
 */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { AppError } from "../../errors";
import type { ReleaseFile } from "../../model";
import type { Storage } from "../../storage/types";
import type { Access } from "../accounts/access";
import { resolveProjects } from "../releases/releases";
import { releaseVersion } from "../releases/input";
import { BundleError, checkSourceMap, normalDebugId, parseBundle } from "./bundle-zip";
import { announceArtifactsChanged } from "../../symbolication/presence";

const MiB = 1024 * 1024;
/** What the options tell sentry-cli: chunks of 8 MiB, at most 4 per request of at most 32 MiB. */
export const CHUNK_SIZE = 8 * MiB;
export const CHUNKS_PER_REQUEST = 4;
export const MAX_CHUNK_REQUEST_BYTES = 32 * MiB;

const sha1 = (bytes: Uint8Array): string => createHash("sha1").update(bytes).digest("hex");
const SHA1 = /^[0-9a-f]{40}$/;

export function chunkUploadOptions(organizationSlug: string, maxArtifactBytes: number) {
  return {
    // Relative: sentry-cli puts its own --url in front, so this works behind any proxy.
    url: `/api/0/organizations/${encodeURIComponent(organizationSlug)}/chunk-upload/`,
    chunkSize: CHUNK_SIZE,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxFileSize: maxArtifactBytes,
    maxRequestSize: MAX_CHUNK_REQUEST_BYTES,
    concurrency: 2,
    hashAlgorithm: "sha1",
    compression: ["gzip"],
    accept: ["release_files", "artifact_bundles", "artifact_bundles_v2"],
  };
}

export interface UploadedPart {
  field: string;
  filename: string;
  bytes: Buffer;
}

/** Checks every chunk (gzip undone, SHA-1 = its file name) and then stores them all, or none. */
export async function acceptChunks(storage: Storage, access: Access, parts: UploadedPart[]): Promise<number> {
  const chunks: { sha1: string; bytes: Buffer }[] = [];
  for (const part of parts) {
    if (part.field !== "file" && part.field !== "file_gzip") continue;
    const name = part.filename.toLowerCase();
    if (!SHA1.test(name)) throw new AppError("bad_request", `chunk file name ${JSON.stringify(part.filename.slice(0, 80))} is not the SHA-1 of its content`);
    let bytes = part.bytes;
    if (part.field === "file_gzip") {
      try {
        bytes = gunzipSync(part.bytes, { maxOutputLength: CHUNK_SIZE });
      } catch (error) {
        const reason = (error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? `unpacks to more than the chunk size (${CHUNK_SIZE} bytes)` : "is not valid gzip";
        throw new AppError("bad_request", `chunk ${name} ${reason}`);
      }
    }
    if (bytes.length > CHUNK_SIZE) throw new AppError("payload_too_large", `chunk ${name} is larger than the chunk size (${CHUNK_SIZE} bytes)`);
    const actual = sha1(bytes);
    if (actual !== name) throw new AppError("bad_request", `chunk ${name}: checksum mismatch, its content has SHA-1 ${actual}`);
    chunks.push({ sha1: name, bytes });
  }
  if (chunks.length === 0) throw new AppError("bad_request", 'no chunks: send them as multipart fields named "file" (or "file_gzip"), each named by its SHA-1');
  await storage.artifacts.putChunks(access.organization.id, chunks);
  return chunks.length;
}

const sha1Input = z.string().regex(/^[0-9a-fA-F]{40}$/, "must be a SHA-1 (40 hex digits)").transform((value) => value.toLowerCase());

export const assembleInput = z.object({
  checksum: sha1Input,
  chunks: z.array(sha1Input).max(10_000),
  projects: z.array(z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String)).min(1, "name at least one project").max(100),
  version: releaseVersion.nullable().optional(),
  dist: z.string().min(1).max(64).nullable().optional(),
});
export type AssembleInput = z.infer<typeof assembleInput>;

export type AssembleState = "ok" | "not_found" | "error";
export interface AssembleAnswer {
  state: AssembleState;
  missingChunks: string[];
  detail: string | null;
}

/**
 * Assembles the bundle at once (no background state): "ok" when stored (also when that checksum
 * was stored before), "not_found" with the chunks still to upload, "error" with the reason.
 */
export async function assembleBundle(storage: Storage, access: Access, input: AssembleInput, maxArtifactBytes: number): Promise<AssembleAnswer> {
  const projects = await resolveProjects(storage, access, input.projects);
  const organizationId = access.organization.id;
  if (await storage.artifacts.bundleByChecksum(organizationId, input.checksum)) return { state: "ok", missingChunks: [], detail: null };
  if (input.chunks.length === 0) return { state: "error", missingChunks: [], detail: "no chunks were named" };
  const missing = await storage.artifacts.missingChunks(organizationId, input.chunks);
  if (missing.length > 0) return { state: "not_found", missingChunks: missing, detail: null };
  const parts: Buffer[] = [];
  let size = 0;
  for (const chunk of input.chunks) {
    const bytes = await storage.artifacts.content(chunk);
    if (!bytes) return { state: "not_found", missingChunks: [chunk], detail: null };
    size += bytes.length;
    if (size > maxArtifactBytes) return { state: "error", missingChunks: [], detail: `the bundle is larger than ${maxArtifactBytes} bytes (MAX_ARTIFACT_BYTES)` };
    parts.push(bytes);
  }
  const bundle = Buffer.concat(parts);
  const actual = sha1(bundle);
  if (actual !== input.checksum) return { state: "error", missingChunks: [], detail: `checksum mismatch: the chunks join to SHA-1 ${actual}, not ${input.checksum}` };
  try {
    const parsed = parseBundle(bundle, maxArtifactBytes);
    await storage.artifacts.saveBundle({
      organizationId,
      checksum: input.checksum,
      bundleId: parsed.bundleId,
      release: input.version ?? parsed.release,
      dist: input.dist ?? parsed.dist,
      projectIds: projects.map((project) => project.id),
      size: bundle.length,
      files: parsed.files,
    });
  } catch (error) {
    if (error instanceof BundleError) return { state: "error", missingChunks: [], detail: error.message };
    throw error;
  }
  for (const project of projects) announceArtifactsChanged(project.id);
  return { state: "ok", missingChunks: [], detail: null };
}

export interface ReleaseFileUpload {
  file: { filename: string; bytes: Buffer } | null;
  name: string | null;
  dist: string | null;
  /** `header` fields as sent: "Name: value". */
  headers: string[];
}

/** The older upload: one file bound to release + dist + URL (`name`). */
export async function uploadReleaseFile(storage: Storage, access: Access, projectId: string, version: string, upload: ReleaseFileUpload, maxArtifactBytes: number): Promise<ReleaseFile> {
  if (!upload.file) throw new AppError("bad_request", 'missing the "file" field');
  const name = (upload.name ?? upload.file.filename).trim();
  if (name === "" || name.length > 2048) throw new AppError("bad_request", '"name" must be the file\'s URL, e.g. ~/static/app.min.js');
  if (upload.dist !== null && (upload.dist === "" || upload.dist.length > 64)) throw new AppError("bad_request", '"dist" must be 1-64 characters');
  if (upload.file.bytes.length > maxArtifactBytes) throw new AppError("payload_too_large", `the file is larger than ${maxArtifactBytes} bytes (MAX_ARTIFACT_BYTES)`);
  const headers: Record<string, string> = {};
  for (const header of upload.headers) {
    const colon = header.indexOf(":");
    if (colon <= 0) throw new AppError("bad_request", `header ${JSON.stringify(header.slice(0, 80))} is not "Name: value"`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const { bytes } = upload.file;
  const text = bytes.subarray(0, Math.min(bytes.length, 1024 * 1024)).toString("utf8");
  const headerValue = (wanted: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1] ?? null;
  const looksLikeMap = name.endsWith(".map") || /^\s*\{[\s\S]*"mappings"\s*:/.test(text.slice(0, 4096));
  let kind: "source_map" | "minified_source" | "source" = "source";
  let debugId: string | null = normalDebugId(headerValue("debug-id"));
  let sourceMapRef = headerValue("sourcemap") ?? headerValue("x-sourcemap");
  if (looksLikeMap) {
    try {
      checkSourceMap(bytes, name);
    } catch (error) {
      if (error instanceof BundleError) throw new AppError("bad_request", error.message);
      throw error;
    }
    kind = "source_map";
    const map = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    debugId ??= normalDebugId(map.debug_id ?? map.debugId);
  } else {
    const tail = bytes.subarray(Math.max(0, bytes.length - 4096)).toString("utf8");
    const reference = /\/\/[#@] sourceMappingURL=(\S+)\s*$/m.exec(tail)?.[1] ?? null;
    sourceMapRef ??= reference;
    debugId ??= normalDebugId(/\/\/# debugId=(\S+)/.exec(tail)?.[1]);
    if (sourceMapRef) kind = "minified_source";
  }
  const saved = await storage.artifacts.saveReleaseFile({
    organizationId: access.organization.id,
    projectId,
    release: version,
    dist: upload.dist,
    name,
    kind,
    debugId,
    sourceMapRef,
    headers,
    bytes,
    sha1: sha1(bytes),
  });
  announceArtifactsChanged(projectId);
  return saved;
}
