import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PACKED_FROM, packPayload, unpackPayload } from "../../src/storage/stored-payload";

describe("stored payload packing (SQLite)", () => {
  it("keeps text below the threshold as the same string", () => {
    const small = "x".repeat(PACKED_FROM - 1);
    assert.equal(packPayload(small), small);
    assert.equal(unpackPayload(small), small);
  });

  it("deflates text from the threshold on and inflates it back exactly", () => {
    const crumbs = Array.from({ length: 200 }, (_, i) => ({ category: "http", message: `GET /api/items/${i}`, level: "info" }));
    const json = JSON.stringify({ breadcrumbs: crumbs });
    assert.ok(json.length >= PACKED_FROM);
    const packed = packPayload(json);
    assert.ok(Buffer.isBuffer(packed));
    assert.ok(packed.length < json.length / 5, `${packed.length} bytes for ${json.length} characters`);
    assert.equal(unpackPayload(packed), json);
    assert.equal(unpackPayload(new Uint8Array(packed)), json);
  });

  it("packs at exactly the threshold, and round-trips text beyond ASCII (NUL, accents, astral)", () => {
    const edge = "a".repeat(PACKED_FROM);
    assert.ok(Buffer.isBuffer(packPayload(edge)));
    const wide = `{"m":"${"é😀\\u0000".repeat(PACKED_FROM / 4)}"}`;
    assert.equal(unpackPayload(packPayload(wide)), wide);
  });

  it("refuses bytes that are not a deflated payload", () => {
    assert.throws(() => unpackPayload(Buffer.from([0xff, 0xff, 0xff, 0xff])), /invalid/);
  });
});
