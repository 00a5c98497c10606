import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, test } from "node:test";
import { applyPageHeaders } from "../../src/http/page-headers";

function exchange(url: string): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.method = "GET";
  return { req, res: new ServerResponse(req) };
}

describe("page headers (src/http/page-headers.ts)", () => {
  test("HSTS only when PUBLIC_URL is https", () => {
    const secure = exchange("/login");
    assert.equal(applyPageHeaders(secure.req, secure.res, { dev: false, https: true }), true);
    assert.equal(secure.res.getHeader("strict-transport-security"), "max-age=31536000");
    const plain = exchange("/login");
    applyPageHeaders(plain.req, plain.res, { dev: false, https: false });
    assert.equal(plain.res.getHeader("strict-transport-security"), undefined);
  });

  test("the request carries the same policy as the response, for Next to read the nonce from", () => {
    const { req, res } = exchange("/organizations/default/issues/");
    applyPageHeaders(req, res, { dev: false, https: false });
    assert.equal(req.headers["content-security-policy"], res.getHeader("content-security-policy"));
    assert.match(String(res.getHeader("content-security-policy")), /script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='; /);
    assert.equal(res.getHeader("cache-control"), undefined, "pages set their own caching");
  });

  test("/api/0 is no-store; an undecodable path is answered 400 here", () => {
    const api = exchange("/api/0/organizations/?x=1");
    applyPageHeaders(api.req, api.res, { dev: false, https: false });
    assert.equal(api.res.getHeader("cache-control"), "no-store");
    const bad = exchange("/organizations/%ED%A0%80/issues");
    assert.equal(applyPageHeaders(bad.req, bad.res, { dev: false, https: false }), false);
    assert.equal(bad.res.statusCode, 400);
  });
});
