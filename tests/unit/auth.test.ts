import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { describe, test } from "node:test";
import { AppError } from "../../src/errors";
import { credentialsFromEnvelopeHeader, extractRequestCredentials, parseDsn } from "../../src/ingest/auth";
import { readEnvelopeHeader } from "../../src/ingest/envelope";

const KEY = "e12d836b15bb49d7bbf99e64295d995b";
const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;
const extract = (headers: IncomingHttpHeaders, query = "") => extractRequestCredentials(headers, new URLSearchParams(query));

function assertAppError(fn: () => unknown, code: AppError["code"], message: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.deepEqual({ code: error.code, message: error.message }, { code, message });
    return true;
  });
}

describe("extractRequestCredentials: sources 1–4", () => {
  test("X-Sentry-Auth, as sentry-python sends it; the key is normalised to lower case", () => {
    const header = `Sentry sentry_version=7, sentry_client=sentry.python/2.19.0, sentry_key=${KEY.toUpperCase()}`;
    assert.deepEqual(extract({ "x-sentry-auth": header }), { publicKey: KEY, version: 7, client: "sentry.python/2.19.0", source: "x-sentry-auth" });
  });

  test("the header grammar: any-case prefix, spaces trimmed, 7.0 means 7, version defaults to 7, other keys ignored", () => {
    const header = `SENTRY  sentry_key = ${KEY} ,sentry_version=7.0, sentry_secret=s, sentry_timestamp=1, other=x, novalue`;
    assert.deepEqual(extract({ "x-sentry-auth": header }), { publicKey: KEY, version: 7, client: null, source: "x-sentry-auth" });
    assert.deepEqual(extract({ "x-sentry-auth": `sentry sentry_key=${KEY}, sentry_version=5` }), { publicKey: KEY, version: 5, client: null, source: "x-sentry-auth" });
  });

  test("Authorization: Sentry …", () => {
    assert.deepEqual(extract({ authorization: `Sentry sentry_key=${KEY}, sentry_client=sdk/1.0` }), { publicKey: KEY, version: 7, client: "sdk/1.0", source: "authorization" });
  });

  test("Authorization: Basic base64(key:anything)", () => {
    assert.deepEqual(extract({ authorization: basic(`${KEY}:secret:with:colons`) }), { publicKey: KEY, version: 7, client: null, source: "basic" });
  });

  test("query string, as the JS SDKs send it", () => {
    const query = `sentry_version=7&sentry_key=${KEY}&sentry_client=sentry.javascript.browser%2F11.12.0`;
    assert.deepEqual(extract({}, query), { publicKey: KEY, version: 7, client: "sentry.javascript.browser/11.12.0", source: "query" });
  });

  test("no source, or only values Relay ignores, is null", () => {
    const ignored: IncomingHttpHeaders[] = [
      {},
      { "x-sentry-auth": `Bearer sentry_key=${KEY}` },
      { authorization: "Bearer abc" },
      { authorization: basic(KEY) },
      { authorization: basic(`:${KEY}`) },
      { authorization: "Basic !!!not-base64" },
      { authorization: `Basic ${Buffer.from([0xff, 0x3a]).toString("base64")}` },
    ];
    for (const headers of ignored) assert.equal(extract(headers, "foo=bar"), null, JSON.stringify(headers));
  });

  test("a query that only comes close to sentry_ is no source", () => {
    for (const query of ["sentry=1", "sentry-key=x", "x=sentry", "sentry&_=1", "sentry=_"]) assert.equal(extract({}, query), null, query);
  });
});

describe("extractRequestCredentials: the error rows of docs/protocol.md §2.2", () => {
  const cases: [string, IncomingHttpHeaders, string, AppError["code"], string][] = [
    ["X-Sentry-Auth and ?sentry_key", { "x-sentry-auth": `Sentry sentry_key=${KEY}` }, `sentry_key=${KEY}`, "unauthorized", "multiple authorization payloads detected"],
    ["Basic and query", { authorization: basic(`${KEY}:x`) }, `sentry_key=${KEY}`, "unauthorized", "multiple authorization payloads detected"],
    ["X-Sentry-Auth and Authorization: Sentry", { "x-sentry-auth": `Sentry sentry_key=${KEY}`, authorization: `Sentry sentry_key=${KEY}` }, "", "unauthorized", "multiple authorization payloads detected"],
    ["a second source even with a bad key", { "x-sentry-auth": "Sentry sentry_key=bad" }, "sentry_key=bad", "unauthorized", "multiple authorization payloads detected"],
    ["a query merely containing sentry_ is a source", { "x-sentry-auth": `Sentry sentry_key=${KEY}` }, "x=not_sentry_related", "unauthorized", "multiple authorization payloads detected"],
    ["Sentry header without sentry_key", { "x-sentry-auth": "Sentry sentry_version=7" }, "", "unauthorized", "bad x-sentry-auth header"],
    ["Sentry header with an empty sentry_key", { authorization: "Sentry sentry_key=" }, "", "unauthorized", "bad x-sentry-auth header"],
    ["a bad first source fails as such before a second is noticed", { "x-sentry-auth": "Sentry sentry_version=7" }, `sentry_key=${KEY}`, "unauthorized", "bad x-sentry-auth header"],
    ["query with sentry_ but no sentry_key", {}, "sentry_version=7", "unauthorized", "bad x-sentry-auth header"],
    ["sentry_ only in a query value", {}, "next=%2Fsentry_setup", "unauthorized", "bad x-sentry-auth header"],
    ["sentry_ in a query name spelled with an escape", {}, "sentry%5Fversion=7", "unauthorized", "bad x-sentry-auth header"],
    ["non-numeric sentry_version", { "x-sentry-auth": `Sentry sentry_key=${KEY}, sentry_version=seven` }, "", "unauthorized", "bad x-sentry-auth header"],
    ["sentry_version over u16", {}, `sentry_key=${KEY}&sentry_version=70000`, "unauthorized", "bad x-sentry-auth header"],
    ["key not hex", { "x-sentry-auth": `Sentry sentry_key=${"g".repeat(32)}` }, "", "bad_request", "bad sentry DSN public key"],
    ["key too short", {}, `sentry_key=${KEY.slice(1)}`, "bad_request", "bad sentry DSN public key"],
    ["Basic with a key that is not one", { authorization: basic("public:secret") }, "", "bad_request", "bad sentry DSN public key"],
    ["version above 7", { "x-sentry-auth": `Sentry sentry_key=${KEY}, sentry_version=8` }, "", "bad_request", "unsupported protocol version (8)"],
    ["version above 7 in the query", {}, `sentry_key=${KEY}&sentry_version=42.1`, "bad_request", "unsupported protocol version (42)"],
  ];
  for (const [name, headers, query, code, message] of cases) {
    test(name, () => assertAppError(() => extract(headers, query), code, message));
  }
});

describe("parseDsn", () => {
  test("a plain DSN", () => {
    assert.deepEqual(parseDsn(`https://${KEY}@o1.ingest.sentry.io/42`), { protocol: "https", publicKey: KEY, host: "o1.ingest.sentry.io", port: null, pathPrefix: "", projectId: "42" });
  });

  test("secret key, port, path prefix and an upper-case key", () => {
    assert.deepEqual(parseDsn(`HTTP://${KEY.toUpperCase()}:secret@127.0.0.1:9000/sentry/sub/7`), { protocol: "http", publicKey: KEY, host: "127.0.0.1", port: 9000, pathPrefix: "/sentry/sub", projectId: "7" });
  });

  test("malformed DSNs are null", () => {
    const malformed = [
      "", "not a dsn", `ftp://${KEY}@host/1`, `http:${KEY}@host/1`, "http://host/1", `http://nothex@host/1`,
      `http://${KEY}@host`, `http://${KEY}@host/`, `http://${KEY}@host/abc`, `http://${KEY}@host/1/`, `http://${KEY}@host/1?x=1`,
    ];
    for (const dsn of malformed) assert.equal(parseDsn(dsn), null, dsn);
  });

  test("a DSN seen before answers the same, unchangeable, and a malformed one stays null", () => {
    const text = `https://${KEY}@o1.ingest.sentry.io/43`;
    const first = parseDsn(text);
    assert.equal(parseDsn(text), first);
    assert.ok(Object.isFrozen(first));
    assert.deepEqual(first, { protocol: "https", publicKey: KEY, host: "o1.ingest.sentry.io", port: null, pathPrefix: "", projectId: "43" });
    assert.equal(parseDsn("http://host/1"), null);
    assert.equal(parseDsn("http://host/1"), null);
  });

  test("a DSN too long to keep still parses, each time to a value of its own", () => {
    const text = `https://${KEY}@${"h".repeat(600)}.example/44`;
    const first = parseDsn(text);
    assert.deepEqual(first, { protocol: "https", publicKey: KEY, host: `${"h".repeat(600)}.example`, port: null, pathPrefix: "", projectId: "44" });
    assert.notEqual(parseDsn(text), first);
  });

  test("more distinct DSNs than are kept still parse each to its own", () => {
    for (let project = 1; project <= 2_500; project++) {
      assert.equal(parseDsn(`https://${KEY}@host.example/${project}`)?.projectId, String(project));
    }
    assert.equal(parseDsn(`https://${KEY}@host.example/1`)?.projectId, "1");
  });
});

describe("credentialsFromEnvelopeHeader (source 6)", () => {
  test("the dsn a tunnelled browser SDK put in its envelope header", () => {
    const fixture = path.resolve(import.meta.dirname, "../fixtures/envelopes/browser-tunnel-uncaught-error.envelope");
    const header = readEnvelopeHeader(readFileSync(fixture));
    assert.deepEqual(credentialsFromEnvelopeHeader(header), {
      credentials: { publicKey: "0123456789abcdef0123456789abcdef", version: 7, client: null, source: "envelope" },
      projectId: "1",
    });
  });

  test("no dsn is missing authorization", () => {
    assertAppError(() => credentialsFromEnvelopeHeader({ event_id: KEY }), "unauthorized", "missing authorization information");
    assertAppError(() => credentialsFromEnvelopeHeader({ dsn: null }), "unauthorized", "missing authorization information");
  });

  test("a first line that is not a JSON object, or a dsn that does not parse, is a bad envelope header", () => {
    assertAppError(() => credentialsFromEnvelopeHeader(null), "unauthorized", "bad envelope authentication header");
    assertAppError(() => credentialsFromEnvelopeHeader(readEnvelopeHeader(Buffer.from("garbage\n{}"))), "unauthorized", "bad envelope authentication header");
    for (const dsn of ["nope", 42, `http://${KEY}@host/x`, `http://short@host/1`]) {
      assertAppError(() => credentialsFromEnvelopeHeader({ dsn }), "unauthorized", "bad envelope authentication header");
    }
  });
});
