/**
 * Reads an ingest request body into a Buffer with two limits (docs/protocol.md §3.2):
 * `maxRequestBytes` on the bytes on the wire and `maxEnvelopeBytes` on the decoded envelope.
 *
 * The wire body is collected first (it is bounded), then decoded with zlib's async one-shot
 * functions and `maxOutputLength`, so a decompression bomb stops at the limit instead of
 * allocating what it expands to. Relay accepts gzip, deflate, br and zstd; Node 20's zlib has no
 * zstd decoder, so zstd gets a 415 that says so.
 */
import { constants as bufferConstants } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { AppError } from "../errors";

export interface BodyLimits {
  maxRequestBytes: number;
  maxEnvelopeBytes: number;
}

type Decoder = (data: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>;

const gunzip: Decoder = promisify(zlib.gunzip);
const inflate: Decoder = promisify(zlib.inflate);
const inflateRaw: Decoder = promisify(zlib.inflateRaw);
const brotliDecompress: Decoder = promisify(zlib.brotliDecompress);

/** HTTP's `deflate` is zlib-wrapped (RFC 1950); some clients send raw deflate, which we also accept. */
const inflateEither: Decoder = async (data, options) => {
  try {
    return await inflate(data, options);
  } catch (error) {
    if (isSizeLimitError(error)) throw error;
    // If raw deflate fails too, the zlib-wrapped error is the one that describes the body.
    return inflateRaw(data, options).catch((rawError: unknown) => Promise.reject(isSizeLimitError(rawError) ? rawError : error));
  }
};

const decoders: Record<string, Decoder> = { gzip: gunzip, "x-gzip": gunzip, deflate: inflateEither, br: brotliDecompress };

/**
 * Values that mean "not compressed". Relay ignores bogus ones SDKs are known to send: empty
 * (sentry-ruby 5.x) and `UTF-8` (sentry-java Android 2.0.0).
 */
const identity = new Set(["", "identity", "utf-8"]);

/** How much of a refused body we read and discard before closing the connection instead. */
const DRAIN_BYTES = 1024 * 1024;

interface Coding {
  name: string;
  decoder: Decoder;
}

/** The codings to undo, in the order to undo them (the reverse of the order they were applied). */
function contentCodings(header: string | undefined): Coding[] {
  // Most SDKs send no Content-Encoding: skip splitting an empty header.
  if (header === undefined) return [];
  const names = header
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => !identity.has(token));
  return names.reverse().map((name) => {
    const decoder = Object.hasOwn(decoders, name) ? decoders[name] : undefined;
    if (decoder) return { name, decoder };
    if (name === "zstd") {
      throw new AppError(
        "unsupported_media_type",
        "unsupported Content-Encoding: zstd (this server runs on Node.js 20, whose zlib has no zstd decoder; send gzip, deflate or br)",
      );
    }
    throw new AppError("unsupported_media_type", `unsupported Content-Encoding: ${name}`);
  });
}

/**
 * Reads and throws away what is left of a body we refused, so a client that is still uploading
 * can read our answer instead of seeing its connection reset; past DRAIN_BYTES we close the
 * connection rather than read an endless upload.
 */
export function discardRest(req: IncomingMessage): void {
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) req.destroy();
  });
  req.resume();
}

function isSizeLimitError(error: unknown): boolean {
  return error instanceof RangeError && (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
}

/** Collects the raw body, rejecting with 413 as soon as it passes `max` bytes and with 400 if the client goes away. */
function readWire(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: AppError | null) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) overflow();
      else chunks.push(chunk);
    };
    const overflow = () => {
      settle(new AppError("payload_too_large", `request body exceeds ${max} bytes`));
      chunks.length = 0;
      req.off("data", collect);
      discardRest(req);
    };
    // An honest Content-Length lets us refuse before reading anything.
    if (Number(req.headers["content-length"]) > max) return overflow();
    req.on("data", collect);
    req.on("end", () => settle(null));
    req.on("error", () => settle(aborted()));
    req.on("close", () => settle(req.complete ? null : aborted()));
  });
}

function aborted(): AppError {
  return new AppError("bad_request", "incomplete request body: the client closed the connection");
}

async function decode(data: Buffer, coding: Coding, maxOutputLength: number): Promise<Buffer> {
  try {
    return await coding.decoder(data, { maxOutputLength });
  } catch (error) {
    if (isSizeLimitError(error)) throw envelopeTooLarge(maxOutputLength);
    throw new AppError("bad_request", `invalid ${coding.name} body: ${(error as Error).message}`);
  }
}

function envelopeTooLarge(max: number): AppError {
  return new AppError("payload_too_large", `envelope exceeds ${max} bytes`);
}

export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  let codings: Coding[];
  try {
    codings = contentCodings(req.headers["content-encoding"]);
  } catch (error) {
    discardRest(req);
    throw error;
  }
  return decodeWith(codings, await readWire(req, limits.maxRequestBytes), limits);
}

/**
 * A body already read whole, decoded as readBody decodes: the codings under the envelope limit. The
 * direct ingest path reads it (src/http/direct-server.ts), and hands a body over the wire limit
 * (maxBodyBytes = MAX_REQUEST_BYTES) to node:http instead, whose readBody refuses it.
 */
export async function decodeBody(wire: Buffer, contentEncoding: string | undefined, limits: BodyLimits): Promise<Buffer> {
  return decodeWith(contentCodings(contentEncoding), wire, limits);
}

async function decodeWith(codings: Coding[], wire: Buffer, limits: BodyLimits): Promise<Buffer> {
  let body = wire;
  // zlib refuses a maxOutputLength above the largest Buffer Node can make.
  const maxOutputLength = Math.min(limits.maxEnvelopeBytes, bufferConstants.MAX_LENGTH);
  // An empty body has nothing to decode; the envelope parser answers "empty request body".
  if (body.length === 0) return body;
  for (const coding of codings) body = await decode(body, coding, maxOutputLength);
  if (body.length > limits.maxEnvelopeBytes) throw envelopeTooLarge(limits.maxEnvelopeBytes);
  return body;
}
