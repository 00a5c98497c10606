/**
 * The CORS answer headers (src/ingest/cors.ts): the whole object, the constant left alone, and the
 * reason corsHeadersWith exists, checked on this Node: its results share one hidden class, where an
 * object spread given more properties gets a new one each time (V8's %HaveSameMap, in a child
 * process started with --allow-natives-syntax).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CORS_HEADERS, corsHeadersWith } from "../../src/ingest/cors";
import { runWithNatives, sourcePath } from "../helpers/natives";

describe("corsHeadersWith", () => {
  it("returns the CORS headers and the given ones as a new object", () => {
    const before = { ...CORS_HEADERS };
    const headers = corsHeadersWith({ "Content-Type": "application/json", "Content-Length": 42 });
    assert.deepEqual(headers, {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers":
        "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, content-type, authentication, authorization, content-encoding, transfer-encoding",
      "Access-Control-Expose-Headers": "x-sentry-error, x-sentry-rate-limits, retry-after",
      "Access-Control-Max-Age": "3600",
      "Content-Type": "application/json",
      "Content-Length": 42,
    });
    assert.notEqual(headers, CORS_HEADERS);
    assert.deepEqual(CORS_HEADERS, before);
  });

  it("gives every answer the same hidden class, which a spread with more properties does not", () => {
    const script = `
      const { CORS_HEADERS, corsHeadersWith } = await import(${sourcePath("src/ingest/cors.ts")});
      // As many answers as a server gives in a second: the first few spread objects still share one,
      // it is once the code is warm that each gets its own.
      const answers = Array.from({ length: 5000 }, (_, n) => n);
      const assigned = answers.map((n) => corsHeadersWith({ "Content-Type": "application/json", "Content-Length": n }));
      const spread = answers.map((n) => ({ ...CORS_HEADERS, "Content-Type": "application/json", "Content-Length": n }));
      console.log(JSON.stringify({
        assigned: %HaveSameMap(assigned[0], assigned[4998]) && %HaveSameMap(assigned[4998], assigned[4999]),
        spread: %HaveSameMap(spread[4998], spread[4999]),
      }));`;
    assert.deepEqual(JSON.parse(runWithNatives(script)), { assigned: true, spread: false });
  });
});
