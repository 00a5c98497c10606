import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseIssueSearch } from "../../src/search/issue-search-terms";
import { AppError } from "../../src/errors";
import { decodeBody } from "../../src/ingest/body";
import { measurementsOf } from "../../src/items/span-data";
import { normalizeEvent } from "../../src/processing/normalize";

/** Look-ups keyed by client input must not find Object.prototype's properties (issue 31, item 6). */
describe("client-chosen keys named like Object.prototype's properties", () => {
  test("level: constructor is an invalid level, not a function", () => {
    const event = normalizeEvent({ level: "constructor" }, { receivedAt: 1_700_000_000_000 });
    assert.equal(event.level, "error");
    assert.deepEqual(event.errors, [{ type: "invalid_data", name: "level", value: "constructor" }]);
  });

  test("is:constructor and is:__proto__ are unsupported filters (400)", () => {
    for (const value of ["constructor", "__proto__", "toString"]) {
      assert.throws(
        () => parseIssueSearch(`is:${value}`, 0),
        (error: unknown) => error instanceof AppError && error.code === "bad_request" && error.message.includes(`is:${value}`),
      );
    }
  });

  test("Content-Encoding: constructor is an unsupported encoding (415)", async () => {
    await assert.rejects(
      decodeBody(Buffer.from("x"), "constructor", { maxRequestBytes: 1024, maxEnvelopeBytes: 1024 }),
      (error: unknown) => error instanceof AppError && error.code === "unsupported_media_type",
    );
  });

  test("a measurement named __proto__ is an own entry, not the object's prototype", () => {
    const out = measurementsOf(JSON.parse('{"__proto__":{"value":5}}'));
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, "__proto__")?.value, { value: 5, unit: "none" });
  });
});
