/**
 * Reads an artifact bundle as sentry-cli builds it: "SYSB" + a 4-byte version, then a zip whose
 * manifest.json lists each file's URL, type and headers (`debug-id`, `Sourcemap`). Everything is
 * checked before anything is stored; a problem is a `BundleError` naming the file.
 */
import { createHash } from "node:crypto";
import { unzipSync, type Unzipped } from "fflate";
import type { ArtifactKind } from "../../model";
import type { NewBundleFile } from "../../storage/types";

export class BundleError extends Error {}

export interface ParsedBundle {
  bundleId: string;
  release: string | null;
  dist: string | null;
  files: NewBundleFile[];
}

const MAGIC = Buffer.from("SYSB");
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

const sha1 = (bytes: Uint8Array): string => createHash("sha1").update(bytes).digest("hex");

/** A debug id as the resolver matches it: lower-case, hyphenated UUID; null for anything else. */
export function normalDebugId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim().slice(0, 36);
  if (!UUID.test(trimmed)) return null;
  const hex = trimmed.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function unzip(bytes: Buffer, maxUnpackedBytes: number): Unzipped {
  let unpacked = 0;
  const filter = (file: { name: string; originalSize: number }) => {
    unpacked += file.originalSize;
    if (unpacked > maxUnpackedBytes) throw new BundleError(`the bundle unpacks to more than ${maxUnpackedBytes} bytes (MAX_ARTIFACT_BYTES)`);
    return true;
  };
  const attempts = bytes.subarray(0, 4).equals(MAGIC) ? [bytes, bytes.subarray(8)] : [bytes];
  let failure: unknown = null;
  for (const data of attempts) {
    try {
      return unzipSync(data, { filter });
    } catch (error) {
      if (error instanceof BundleError) throw error;
      failure = error;
    }
  }
  throw new BundleError(`not a valid artifact bundle: the zip cannot be read (${failure instanceof Error ? failure.message : String(failure)})`);
}

const kindOf = (type: unknown): ArtifactKind =>
  type === "minified_source" || type === "source_map" || type === "source" ? type : "other";

function headerOf(headers: Record<string, unknown>, ...names: string[]): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (names.includes(key.toLowerCase()) && typeof value === "string") return value;
  }
  return null;
}

/** Throws a BundleError unless `bytes` is a source map (version 3, mappings or sections). */
export function checkSourceMap(bytes: Uint8Array, what: string): void {
  let map: unknown;
  try {
    map = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new BundleError(`${what} is not a valid source map: ${error instanceof Error ? error.message : "not JSON"}`);
  }
  const record = map as Record<string, unknown> | null;
  if (!record || typeof record !== "object" || Array.isArray(record)) throw new BundleError(`${what} is not a valid source map: not a JSON object`);
  if (record.version !== 3) throw new BundleError(`${what} is not a valid source map: "version" must be 3`);
  if (typeof record.mappings !== "string" && !Array.isArray(record.sections)) throw new BundleError(`${what} is not a valid source map: it has neither "mappings" nor "sections"`);
}

export function parseBundle(bytes: Buffer, maxUnpackedBytes: number): ParsedBundle {
  const entries = unzip(bytes, maxUnpackedBytes);
  const manifestBytes = entries["manifest.json"];
  if (!manifestBytes) throw new BundleError("not a valid artifact bundle: it has no manifest.json");
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.from(manifestBytes).toString("utf8"));
  } catch {
    throw new BundleError("not a valid artifact bundle: manifest.json is not JSON");
  }
  const record = manifest as Record<string, unknown> | null;
  const listed = record && typeof record === "object" ? record.files : null;
  if (!listed || typeof listed !== "object" || Array.isArray(listed)) throw new BundleError('not a valid artifact bundle: manifest.json has no "files" object');
  const files: NewBundleFile[] = [];
  for (const [path, value] of Object.entries(listed as Record<string, unknown>)) {
    const info = value as Record<string, unknown> | null;
    const url = info && typeof info === "object" ? info.url : null;
    if (typeof url !== "string" || url === "" || url.length > 2048) throw new BundleError(`manifest entry ${path} has no valid "url"`);
    const content = Object.hasOwn(entries, path) ? entries[path] : undefined;
    if (!content) throw new BundleError(`manifest lists ${path} (${url}), which the zip does not contain`);
    const headers = info && typeof info.headers === "object" && info.headers !== null ? (info.headers as Record<string, unknown>) : {};
    const kind = kindOf(info?.type);
    if (kind === "source_map") checkSourceMap(content, `${path} (${url})`);
    const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    files.push({ url, kind, debugId: normalDebugId(headerOf(headers, "debug-id")), sourceMapRef: headerOf(headers, "sourcemap", "x-sourcemap"), bytes: buffer, sha1: sha1(buffer) });
  }
  if (files.length === 0) throw new BundleError("the artifact bundle lists no files");
  const attribute = (name: string): string | null => {
    const value = record?.[name] ?? (record?.attributes as Record<string, unknown> | undefined)?.[name];
    return typeof value === "string" && value !== "" ? value : null;
  };
  return { bundleId: attribute("debug_id") ?? sha1(bytes), release: attribute("release"), dist: attribute("dist"), files };
}
