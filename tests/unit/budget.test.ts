/**
 * The buffer budget (src/ingest/budget.ts) on its own, and with the body decoder that takes from it
 * chunk by chunk (src/ingest/body.ts): its totals, its per-address share, giving back, and a
 * decompression bomb that stops at the limit.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { AppError } from "../../src/errors";
import { addressKey } from "../../src/http/client-address";
import { decodeBody } from "../../src/ingest/body";
import { BufferBudget } from "../../src/ingest/budget";

const MiB = 1024 * 1024;

const isOverBudget = (error: unknown) => error instanceof AppError && error.code === "rate_limited" && error.retryAfterSeconds === 1 && /MAX_BUFFERED_BYTES/.test(error.message);

describe("BufferBudget", () => {
  test("leases take until the total is reached and give everything back on release", () => {
    const budget = new BufferBudget({ total: 100, perAddress: 100 });
    const first = budget.lease("10.0.0.1");
    const second = budget.lease("10.0.0.2");
    first.take(60);
    assert.throws(() => second.take(41), isOverBudget);
    second.take(40);
    assert.equal(budget.held, 100);
    first.release();
    first.release();
    assert.equal(budget.held, 40, "a second release gives nothing back twice");
    second.take(60);
    assert.equal(budget.held, 100);
    second.release();
    assert.equal(budget.held, 0);
  });

  test("one address holds at most its share; another address still gets bytes", () => {
    const budget = new BufferBudget({ total: 100, perAddress: 30 });
    budget.lease("10.0.0.1").take(20);
    const again = budget.lease("10.0.0.1");
    assert.throws(() => again.take(11), isOverBudget);
    again.take(10);
    budget.lease("10.0.0.2").take(30);
    assert.equal(budget.held, 60);
  });

  test("a released lease takes nothing more", () => {
    const budget = new BufferBudget({ total: 100, perAddress: 100 });
    const lease = budget.lease("10.0.0.1");
    lease.release();
    assert.throws(() => lease.take(1), isOverBudget);
    assert.equal(budget.held, 0);
  });
});

describe("addressKey", () => {
  test("IPv4, mapped IPv4 and IPv6 by /64", () => {
    assert.equal(addressKey("192.0.2.7"), "192.0.2.7");
    assert.equal(addressKey("::ffff:192.0.2.7"), "192.0.2.7");
    assert.equal(addressKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
    assert.equal(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"), "2001:db8:1:2::/64");
    assert.equal(addressKey("2001:0db8::1"), "2001:db8:0:0::/64");
    assert.equal(addressKey("::1"), "0:0:0:0::/64");
    assert.equal(addressKey("fe80::1%eth0"), "fe80:0:0:0::/64");
    assert.equal(addressKey(undefined), "unknown");
  });
});

describe("decodeBody with a lease", () => {
  const limits = { maxRequestBytes: 20 * MiB, maxEnvelopeBytes: 4 * MiB };
  const plain = Buffer.alloc(1 * MiB, 0x61);

  for (const [name, encoded] of [
    ["gzip", gzipSync(plain)],
    ["deflate", deflateSync(plain)],
    ["br", brotliCompressSync(plain)],
  ] as const) {
    test(`${name}: the decoded bytes are taken from the lease`, async () => {
      const budget = new BufferBudget({ total: 8 * MiB, perAddress: 8 * MiB });
      const lease = budget.lease("10.0.0.1");
      const body = await decodeBody(encoded, name, limits, lease);
      assert.ok(body.equals(plain));
      assert.equal(budget.held, plain.length);
      lease.release();
      assert.equal(budget.held, 0);
    });
  }

  test("a bomb stops at the envelope limit with 413, before it is decoded whole", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB));
    const budget = new BufferBudget({ total: 64 * MiB, perAddress: 64 * MiB });
    const lease = budget.lease("10.0.0.1");
    await assert.rejects(decodeBody(bomb, "gzip", limits, lease), { code: "payload_too_large", message: `envelope exceeds ${4 * MiB} bytes` });
    assert.ok(budget.held <= limits.maxEnvelopeBytes, `held ${budget.held}`);
    lease.release();
  });

  test("decoding past what the budget has left is refused with 429", async () => {
    const budget = new BufferBudget({ total: 2 * MiB, perAddress: 2 * MiB });
    budget.lease("10.0.0.9").take(1.5 * MiB);
    const lease = budget.lease("10.0.0.1");
    await assert.rejects(decodeBody(gzipSync(plain), "gzip", limits, lease), isOverBudget);
    lease.release();
    assert.equal(budget.held, 1.5 * MiB);
  });

  test("an uncompressed body takes nothing more: its wire bytes were taken when it was read", async () => {
    const budget = new BufferBudget({ total: 1, perAddress: 1 });
    const lease = budget.lease("10.0.0.1");
    assert.equal(await decodeBody(plain, undefined, limits, lease), plain);
    assert.equal(budget.held, 0);
  });
});
