/**
 * readBody against a real node:http server on 127.0.0.1 and real http.request clients: the
 * server echoes the decoded body, or answers the AppError the way the ingest handler does.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import zlib from "node:zlib";
import { AppError, errorBody, httpStatusOf } from "../../src/errors";
import { readBody, type BodyLimits } from "../../src/ingest/body";

let limits: BodyLimits = { maxRequestBytes: 1024 * 1024, maxEnvelopeBytes: 1024 * 1024 };
/** What the server's readBody produced for the latest request (resolved by the handler). */
let serverOutcome: Promise<Buffer | AppError> = Promise.resolve(Buffer.alloc(0));
let settleOutcome: (outcome: Buffer | AppError) => void = () => undefined;
let port = 0;

const server = http.createServer((req, res) => {
  readBody(req, limits).then(
    (body) => {
      settleOutcome(body);
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
    },
    (error: unknown) => {
      assert.ok(error instanceof AppError, String(error));
      settleOutcome(error);
      res.writeHead(httpStatusOf(error.code), { "content-type": "application/json" }).end(JSON.stringify(errorBody(error)));
    },
  );
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

interface Reply {
  status: number;
  body: Buffer;
}

interface PostOptions {
  encoding?: string;
  /** Send without Content-Length, one chunk per buffer (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** Destroy the connection after writing the chunks instead of ending the request. */
  abort?: boolean;
}

/** POSTs the chunks; resolves with the reply, or with the client-side error if the connection died. */
function post(chunks: Buffer[], options: PostOptions = {}): Promise<Reply | Error> {
  serverOutcome = new Promise((resolve) => (settleOutcome = resolve));
  const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
  const headers: http.OutgoingHttpHeaders = {};
  if (options.encoding !== undefined) headers["content-encoding"] = options.encoding;
  if (!options.chunked) headers["content-length"] = options.abort ? size + 100 : size;
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/1/envelope/", headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
      res.on("error", resolve);
    });
    req.on("error", resolve);
    for (const chunk of chunks) req.write(chunk);
    if (options.abort) setTimeout(() => req.destroy(), 50);
    else req.end();
  });
}

const envelope = Buffer.from('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"event"}\n{"message":"héllo"}');

async function assertDecoded(chunks: Buffer[], options: PostOptions, expected: Buffer): Promise<void> {
  assert.deepEqual(await post(chunks, options), { status: 200, body: expected });
}

async function assertRefused(chunks: Buffer[], options: PostOptions, status: number, detail: string): Promise<void> {
  const reply = await post(chunks, options);
  assert.ok(!(reply instanceof Error), String(reply));
  assert.deepEqual({ status: reply.status, body: reply.body.toString() }, { status, body: JSON.stringify({ detail }) });
}

describe("readBody: Content-Encoding", () => {
  test("absent, empty, identity and the bogus UTF-8 mean uncompressed", async () => {
    for (const encoding of [undefined, "", "identity", "UTF-8", "utf-8"]) await assertDecoded([envelope], { encoding }, envelope);
  });

  test("gzip, x-gzip, deflate (zlib-wrapped and raw) and br", async () => {
    await assertDecoded([zlib.gzipSync(envelope)], { encoding: "gzip" }, envelope);
    await assertDecoded([zlib.gzipSync(envelope)], { encoding: "x-gzip" }, envelope);
    await assertDecoded([zlib.deflateSync(envelope)], { encoding: "deflate" }, envelope);
    await assertDecoded([zlib.deflateRawSync(envelope)], { encoding: "deflate" }, envelope);
    await assertDecoded([zlib.brotliCompressSync(envelope)], { encoding: "br" }, envelope);
  });

  test("stacked codings are undone in reverse order, whatever the case and spacing", async () => {
    await assertDecoded([zlib.brotliCompressSync(zlib.gzipSync(envelope))], { encoding: "gzip, br" }, envelope);
    await assertDecoded([zlib.gzipSync(zlib.deflateSync(envelope))], { encoding: "Deflate ,identity,GZIP" }, envelope);
  });

  test("zstd gets a 415 that explains why", async () => {
    const detail = "unsupported Content-Encoding: zstd (this server runs on Node.js 20, whose zlib has no zstd decoder; send gzip, deflate or br)";
    await assertRefused([envelope], { encoding: "zstd" }, 415, detail);
    await assertRefused([envelope], { encoding: "gzip, zstd" }, 415, detail);
  });

  test("other unknown encodings get a 415 naming them", async () => {
    await assertRefused([envelope], { encoding: "compress" }, 415, "unsupported Content-Encoding: compress");
    await assertRefused([zlib.gzipSync(envelope)], { encoding: "gzip, lzma" }, 415, "unsupported Content-Encoding: lzma");
  });

  test("corrupt compressed data is a 400 naming the encoding", async () => {
    await assertRefused([envelope], { encoding: "gzip" }, 400, "invalid gzip body: incorrect header check");
    await assertRefused([zlib.gzipSync(envelope).subarray(0, 20)], { encoding: "gzip" }, 400, "invalid gzip body: unexpected end of file");
    await assertRefused([Buffer.from("not deflate")], { encoding: "deflate" }, 400, "invalid deflate body: incorrect header check");
    await assertRefused([Buffer.from("not brotli")], { encoding: "br" }, 400, "invalid br body: Decompression failed");
    await assertRefused([zlib.gzipSync(envelope)], { encoding: "gzip, br" }, 400, "invalid br body: Decompression failed");
  });

  test("an empty body has nothing to decode", async () => {
    await assertDecoded([], { encoding: "gzip" }, Buffer.alloc(0));
  });

  test("the real gzipped, chunked body @sentry/node sent for a big event", async () => {
    const dir = path.resolve(import.meta.dirname, "../fixtures/envelopes");
    const wire = readFileSync(path.join(dir, "node-big-event.envelope.gz"));
    const chunks = [wire.subarray(0, 1000), wire.subarray(1000)];
    await assertDecoded(chunks, { encoding: "gzip", chunked: true }, readFileSync(path.join(dir, "node-big-event.envelope")));
  });
});

describe("readBody: limits", () => {
  const withLimits = async (next: BodyLimits, run: () => Promise<void>) => {
    const previous = limits;
    limits = next;
    try {
      await run();
    } finally {
      limits = previous;
    }
  };

  test("a body of exactly maxRequestBytes is read, one byte more is 413 (declared or chunked)", async () => {
    await withLimits({ maxRequestBytes: 1000, maxEnvelopeBytes: 10_000 }, async () => {
      await assertDecoded([Buffer.alloc(1000, 0x61)], {}, Buffer.alloc(1000, 0x61));
      await assertRefused([Buffer.alloc(1001, 0x61)], {}, 413, "request body exceeds 1000 bytes");
      await assertRefused([Buffer.alloc(600), Buffer.alloc(401)], { chunked: true }, 413, "request body exceeds 1000 bytes");
    });
  });

  test("a client still uploading a too-large body gets the 413", async () => {
    await withLimits({ maxRequestBytes: 1000, maxEnvelopeBytes: 10_000 }, async () => {
      const chunks = Array.from({ length: 50 }, () => Buffer.alloc(4096));
      await assertRefused(chunks, { chunked: true }, 413, "request body exceeds 1000 bytes");
      await assertRefused(chunks, {}, 413, "request body exceeds 1000 bytes");
    });
  });

  test("an endless upload is refused and cut off, not buffered", async () => {
    await withLimits({ maxRequestBytes: 1000, maxEnvelopeBytes: 10_000 }, async () => {
      const reply = await post(Array.from({ length: 64 }, () => Buffer.alloc(1024 * 1024)), { chunked: true });
      assert.deepEqual(await serverOutcome, new AppError("payload_too_large", "request body exceeds 1000 bytes"));
      // Cut off after draining 1 MiB: the client sees the 413 or a reset, never a hang.
      if (!(reply instanceof Error)) {
        assert.deepEqual({ status: reply.status, body: reply.body.toString() }, { status: 413, body: '{"detail":"request body exceeds 1000 bytes"}' });
      }
    });
  });

  test("a decoded body over maxEnvelopeBytes is 413, compressed or not", async () => {
    await withLimits({ maxRequestBytes: 10_000, maxEnvelopeBytes: 1000 }, async () => {
      await assertDecoded([zlib.gzipSync(Buffer.alloc(1000))], { encoding: "gzip" }, Buffer.alloc(1000));
      await assertRefused([zlib.gzipSync(Buffer.alloc(1001))], { encoding: "gzip" }, 413, "envelope exceeds 1000 bytes");
      await assertRefused([zlib.brotliCompressSync(Buffer.alloc(5000))], { encoding: "br" }, 413, "envelope exceeds 1000 bytes");
      await assertRefused([zlib.deflateRawSync(Buffer.alloc(5000))], { encoding: "deflate" }, 413, "envelope exceeds 1000 bytes");
      await assertRefused([Buffer.alloc(1001)], {}, 413, "envelope exceeds 1000 bytes");
    });
  });

  test("1 GiB of zeros gzipped is refused without being inflated", async () => {
    // 1024 gzip members of 1 MiB of zeros each: one valid gzip stream of 1 GiB, about 1 MiB on the wire.
    const member = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    const rssBefore = process.memoryUsage().rss;
    await withLimits({ maxRequestBytes: 4 * 1024 * 1024, maxEnvelopeBytes: 16 * 1024 * 1024 }, async () => {
      await assertRefused([bomb], { encoding: "gzip" }, 413, "envelope exceeds 16777216 bytes");
    });
    const grownMiB = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    assert.ok(grownMiB < 256, `resident memory grew by ${grownMiB.toFixed(0)} MiB`);
  });
});

describe("readBody: transfer", () => {
  test("a chunked body without Content-Length", async () => {
    const chunks = [envelope.subarray(0, 10), envelope.subarray(10, 40), envelope.subarray(40)];
    await assertDecoded(chunks, { chunked: true }, envelope);
    await assertDecoded([zlib.gzipSync(envelope)], { encoding: "gzip", chunked: true }, envelope);
  });

  test("a client that aborts mid-body rejects the read instead of hanging", async () => {
    const incomplete = new AppError("bad_request", "incomplete request body: the client closed the connection");
    const reply = await post([envelope], { abort: true });
    assert.ok(reply instanceof Error);
    assert.deepEqual(await serverOutcome, incomplete);
    await post([envelope.subarray(0, 10)], { abort: true, chunked: true });
    assert.deepEqual(await serverOutcome, incomplete);
  });
});
