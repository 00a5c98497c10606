import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRequestHead } from "../../src/http/request-head";

const head = (...lines: string[]) => lines.join("\r\n");
const plain = ["POST /api/1/envelope/?sentry_key=abc HTTP/1.1", "Host: localhost:8000", "Content-Length: 42"];

describe("parseRequestHead", () => {
  it("reads an SDK's request: names in lower case, values without surrounding whitespace", () => {
    const parsed = parseRequestHead(head(...plain, "X-Sentry-Auth:  Sentry sentry_key=abc, sentry_version=7 \t", "content-type: application/x-sentry-envelope"));
    assert.deepEqual({ ...parsed, headers: { ...parsed?.headers } }, {
      method: "POST",
      target: "/api/1/envelope/?sentry_key=abc",
      headers: {
        host: "localhost:8000",
        "content-length": "42",
        "x-sentry-auth": "Sentry sentry_key=abc, sentry_version=7",
        "content-type": "application/x-sentry-envelope",
      },
      contentLength: 42,
      keepAlive: true,
    });
  });

  it("notes Connection: close among other tokens", () => {
    assert.equal(parseRequestHead(head(...plain, "Connection: TE, Close"))?.keepAlive, false);
    assert.equal(parseRequestHead(head(...plain, "Connection: keep-alive"))?.keepAlive, true);
  });

  it("keeps a header named __proto__ as a header", () => {
    const parsed = parseRequestHead(head(...plain, "__proto__: x"));
    assert.equal(parsed?.headers["__proto__"], "x");
    assert.equal(Object.getPrototypeOf(parsed?.headers), null);
  });

  const refused: [string, string][] = [
    ["HTTP/1.0", head("POST /api/1/envelope/ HTTP/1.0", "Host: a", "Content-Length: 1")],
    ["a lower-case method", head("post /api/1/envelope/ HTTP/1.1", "Host: a", "Content-Length: 1")],
    ["an absolute-form target", head("POST http://a/api/1/envelope/ HTTP/1.1", "Host: a", "Content-Length: 1")],
    ["no Content-Length", head("POST /api/1/envelope/ HTTP/1.1", "Host: a")],
    ["a signed Content-Length", head("POST /x HTTP/1.1", "Host: a", "Content-Length: +1")],
    ["a Content-Length given twice", head(...plain, "Content-Length: 42")],
    ["any header given twice", head(...plain, "X-A: 1", "x-a: 2")],
    ["a chunked body", head(...plain, "Transfer-Encoding: chunked")],
    ["Expect: 100-continue", head(...plain, "Expect: 100-continue")],
    ["an upgrade", head(...plain, "Upgrade: websocket", "Connection: Upgrade")],
    ["Connection: upgrade without Upgrade", head(...plain, "Connection: upgrade")],
    ["no Host", head("POST /x HTTP/1.1", "Content-Length: 1")],
    ["a folded line", head(...plain, "X-A: 1", " continued")],
    ["a space before the colon", head(...plain, "X-A : 1")],
    ["a line without a colon", head(...plain, "X-A")],
    ["a control character in a value", head(...plain, "X-A: a\u0001b")],
    ["a bare LF inside a line", head(...plain, "X-A: a\nX-B: b")],
    ["an empty line inside the head", head(...plain, "", "X-A: 1")],
  ];
  for (const [what, text] of refused) {
    it(`leaves ${what} to node:http`, () => assert.equal(parseRequestHead(text), null));
  }
});
