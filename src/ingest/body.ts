/**
 * Reads an ingest request body into a Buffer with two limits (docs/protocol.md §3.2):
 * `maxRequestBytes` on the bytes on the wire and `maxEnvelopeBytes` on the decoded envelope.
 *
 * The wire body is collected first (it is bounded), then decoded through a zlib stream whose output
 * is counted chunk by chunk: a decompression bomb stops at the envelope limit instead of allocating
 * what it expands to, and every chunk is taken from the buffer budget (src/ingest/budget.ts) before
 * it is kept, so many concurrent bombs cannot add up either. Relay accepts gzip, deflate, br and
 * zstd; Node 20's zlib has no zstd decoder, so zstd gets a 415 that says so.
 */
import { constants as bufferConstants } from "node:buffer";
import type { IncomingMessage } from "node:http";
import zlib from "node:zlib";
import { AppError } from "../errors";
import type { BufferLease } from "./budget";

export interface BodyLimits {
  maxRequestBytes: number;
  maxEnvelopeBytes: number;
}

/** Decodes `data` whole, rejecting with the limit's AppError once the output passes `max` or the lease cannot take it. */
type Decoder = (data: Buffer, max: number, lease: BufferLease | null) => Promise<Buffer>;

/** Thrown inside a decoder when the output passes the envelope limit. */
class TooLarge extends Error {}

/**
 * Runs one zlib stream over `data`, counting its output as it comes: past `max` or past what the
 * lease can take, the stream is destroyed at once and the chunks so far are dropped.
 */
function streamed(create: () => zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress): Decoder {
  return (data, max, lease) =>
    new Promise((resolve, reject) => {
      const stream = create();
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: unknown) => {
        chunks.length = 0;
        stream.destroy();
        reject(error);
      };
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) return fail(new TooLarge());
        try {
          lease?.take(chunk.length);
        } catch (error) {
          return fail(error);
        }
        chunks.push(chunk);
      });
      stream.on("error", fail);
      stream.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
      stream.end(data);
    });
}

const gunzip = streamed(() => zlib.createGunzip());
const inflate = streamed(() => zlib.createInflate());
const inflateRaw = streamed(() => zlib.createInflateRaw());
const brotliDecompress = streamed(() => zlib.createBrotliDecompress());

/** HTTP's `deflate` is zlib-wrapped (RFC 1950); some clients send raw deflate, which we also accept. */
const inflateEither: Decoder = async (data, max, lease) => {
  try {
    return await inflate(data, max, lease);
  } catch (error) {
    if (!isZlibError(error)) throw error;
    // If raw deflate fails too, the zlib-wrapped error is the one that describes the body.
    return inflateRaw(data, max, lease).catch((rawError: unknown) => Promise.reject(isZlibError(rawError) ? error : rawError));
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

/** A fault in the compressed data itself, as opposed to a limit (TooLarge, the budget's AppError). */
function isZlibError(error: unknown): boolean {
  return !(error instanceof TooLarge) && !(error instanceof AppError);
}

/**
 * Collects the raw body, rejecting with 413 as soon as it passes `max` bytes, with 429 when the lease
 * cannot take it, and with 400 if the client goes away.
 */
function readWire(req: IncomingMessage, max: number, lease: BufferLease | null): Promise<Buffer> {
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
      if (size > max) return refuse(new AppError("payload_too_large", `request body exceeds ${max} bytes`));
      // Without a Content-Length (chunked), each chunk is taken as it comes.
      if (declared === null) {
        try {
          lease?.take(chunk.length);
        } catch (error) {
          return refuse(error as AppError);
        }
      }
      chunks.push(chunk);
    };
    const refuse = (error: AppError) => {
      settle(error);
      chunks.length = 0;
      req.off("data", collect);
      discardRest(req);
    };
    const length = req.headers["content-length"];
    const declared = length === undefined ? null : Number(length);
    // An honest Content-Length lets us refuse, or take the budget it needs, before reading anything.
    if (declared !== null && declared > max) return refuse(new AppError("payload_too_large", `request body exceeds ${max} bytes`));
    if (declared !== null) {
      try {
        lease?.take(declared);
      } catch (error) {
        return refuse(error as AppError);
      }
    }
    req.on("data", collect);
    req.on("end", () => settle(null));
    req.on("error", () => settle(aborted()));
    req.on("close", () => settle(req.complete ? null : aborted()));
  });
}

function aborted(): AppError {
  return new AppError("bad_request", "incomplete request body: the client closed the connection");
}

async function decode(data: Buffer, coding: Coding, max: number, lease: BufferLease | null): Promise<Buffer> {
  try {
    return await coding.decoder(data, max, lease);
  } catch (error) {
    if (error instanceof TooLarge) throw envelopeTooLarge(max);
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", `invalid ${coding.name} body: ${(error as Error).message}`);
  }
}

function envelopeTooLarge(max: number): AppError {
  return new AppError("payload_too_large", `envelope exceeds ${max} bytes`);
}

/** `lease`: where the bytes held are taken from (src/ingest/budget.ts); the caller releases it once the request is over. */
export async function readBody(req: IncomingMessage, limits: BodyLimits, lease: BufferLease | null = null): Promise<Buffer> {
  let codings: Coding[];
  try {
    codings = contentCodings(req.headers["content-encoding"]);
  } catch (error) {
    discardRest(req);
    throw error;
  }
  return decodeWith(codings, await readWire(req, limits.maxRequestBytes, lease), limits, lease);
}

/**
 * A body already read whole, decoded as readBody decodes: the codings under the envelope limit. The
 * direct ingest path reads it (src/http/direct-server.ts), and hands a body over the wire limit
 * (maxBodyBytes = MAX_REQUEST_BYTES) to node:http instead, whose readBody refuses it.
 */
export async function decodeBody(wire: Buffer, contentEncoding: string | undefined, limits: BodyLimits, lease: BufferLease | null = null): Promise<Buffer> {
  return decodeWith(contentCodings(contentEncoding), wire, limits, lease);
}

async function decodeWith(codings: Coding[], wire: Buffer, limits: BodyLimits, lease: BufferLease | null): Promise<Buffer> {
  let body = wire;
  const maxOutputLength = Math.min(limits.maxEnvelopeBytes, bufferConstants.MAX_LENGTH);
  // An empty body has nothing to decode; the envelope parser answers "empty request body".
  if (body.length === 0) return body;
  for (const coding of codings) body = await decode(body, coding, maxOutputLength, lease);
  if (body.length > limits.maxEnvelopeBytes) throw envelopeTooLarge(limits.maxEnvelopeBytes);
  return body;
}
