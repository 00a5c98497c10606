/**
 * Abuse resistance, input side (issue 31, items 3, 6 and 8), against one real server: what an
 * anonymous SDK client or a signed-in person can send must cost a bounded amount to store and to
 * render, malformed input is a 4xx with a message (never a 500), and the security headers hold.
 * Every test here failed on the code before the fix.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { EVENT_LIMITS } from "../../src/processing/limits";
import { OWNER_EMAIL, OWNER_PASSWORD, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let parent: string;
let upstream: Server;
let upstreamUrl: string;
let cookie: string;

/** Another region whose answer is an HTML page: the tunnel must not serve it on our origin. */
async function startHtmlRegion(): Promise<void> {
  upstream = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "text/html" }).end("<script>alert(document.cookie)</script>"));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

async function signIn(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.baseUrl },
    body: JSON.stringify({ email: OWNER_EMAIL, password: OWNER_PASSWORD }),
  });
  assert.equal(response.status, 200, await response.text());
  return response.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
}

/** Stores one event through the store endpoint and returns its issue id. */
async function storeEvent(event: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/store/?sentry_key=${server.publicKey}&sentry_version=7`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(event),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  const { id } = JSON.parse(text) as { id: string };
  const found = await server.api(`/api/0/projects/default/${await projectSlug()}/events/${id}/`);
  assert.equal(found.status, 200, `event ${id} stored`);
  return ((await found.json()) as { groupID: string }).groupID;
}

let slug: string | undefined;
async function projectSlug(): Promise<string> {
  if (slug) return slug;
  const projects = (await (await server.api("/api/0/organizations/default/projects/")).json()) as { id: string; slug: string }[];
  slug = projects.find((project) => project.id === server.projectId)?.slug;
  assert.ok(slug);
  return slug;
}

async function issuePage(issueId: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/organizations/default/issues/${issueId}/`, { headers: { cookie } });
  assert.equal(response.status, 200);
  return response.text();
}

before(async () => {
  await startHtmlRegion();
  parent = mkdtempSync(path.join(tmpdir(), "periscope-abuse-"));
  // A DATA_DIR that does not exist yet: the server creates it.
  server = await startServer({ DATA_DIR: path.join(parent, "data"), REGION: "eu", REGIONS: `us=${upstreamUrl}` });
  cookie = await signIn();
});
after(async () => {
  await server?.stop();
  rmSync(parent, { recursive: true, force: true });
  upstream?.close();
});

describe("stored render cost (item 3)", () => {
  test("an event with 10,000 tags is trimmed at ingest and its issue page stays small", async () => {
    const tags = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`abuse_key_${index}`, `value_${index}`]));
    const issueId = await storeEvent({ message: "ten thousand tags", tags });
    const html = await issuePage(issueId);
    // Each kept tag is rendered a few times (event tags, tag aside, raw JSON, the RSC payload):
    // 2 KiB per kept tag and 512 KiB for the rest of the page bound it; untrimmed it was ≈ 20 MB.
    const bound = EVENT_LIMITS.tags * 2048 + 512 * 1024;
    assert.ok(html.length < bound, `the page is ${html.length} bytes, bound ${bound}`);
    assert.ok(html.includes("abuse_key_0") && !html.includes("abuse_key_9999"));
    assert.match(html, /9,800<!-- --> <!-- -->tags<!-- --> omitted|9,800 tags omitted/);
  });

  test("an event with 12,500 frames keeps its first and last frames and says how many were omitted", async () => {
    const frames = Array.from({ length: 12_500 }, (_, index) => ({ function: `fn_${String(index).padStart(5, "0")}`, filename: "deep.js", lineno: index + 1 }));
    const issueId = await storeEvent({ exception: { values: [{ type: "RangeError", value: "too deep", stacktrace: { frames } }] } });
    const html = await issuePage(issueId);
    assert.ok(html.length < EVENT_LIMITS.framesPerStack * 4096 + 512 * 1024, `the page is ${html.length} bytes`);
    for (const kept of ["fn_00000", "fn_00124", "fn_12375", "fn_12499"]) assert.ok(html.includes(kept), `${kept} is shown`);
    for (const cut of ["fn_00125", "fn_06000", "fn_12374"]) assert.ok(!html.includes(cut), `${cut} is omitted`);
    assert.match(html, /data-testid="frames-omitted"[^>]*>12,250/);
  });
});

describe("malformed input is a 4xx with a message (item 6)", () => {
  for (const field of ["__proto__", "constructor"]) {
    test(`the events API with field=${field}`, async () => {
      const response = await server.api(`/api/0/organizations/default/events/?dataset=spans&field=${field}`);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { detail: `Unknown field: ${field}` });
    });
  }

  test("the tunnel with r=constructor", async () => {
    const envelope = `${JSON.stringify({ dsn: `${new URL(server.baseUrl).protocol}//${server.publicKey}@${new URL(server.baseUrl).host}/2` })}\n{"type":"event"}\n{}`;
    const response = await fetch(`${server.baseUrl}/monitoring?o=1&p=2&r=constructor`, { method: "POST", body: envelope });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { detail: string };
    assert.match(body.detail, /unknown region "constructor"/);
  });

  test("a form login whose next path has a character above U+00FF redirects to that path, percent-encoded", async () => {
    const response = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.baseUrl },
      body: new URLSearchParams({ email: OWNER_EMAIL, password: OWNER_PASSWORD, next: "/。evil.com" }).toString(),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/%E3%80%82evil.com");
  });

  test("a path that is not valid UTF-8 once decoded", async () => {
    const response = await fetch(`${server.baseUrl}/organizations/%ED%A0%80/issues`, { headers: { cookie } });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /malformed percent-encoding/);
  });
});

describe("hardening (item 8)", () => {
  test("pages allow only scripts carrying this response's nonce", async () => {
    const response = await fetch(`${server.baseUrl}/login`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").map((part) => part.trim()).find((part) => part.startsWith("script-src")) ?? "";
    assert.ok(!scriptSrc.includes("'unsafe-inline'"), scriptSrc);
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc)?.[1];
    assert.ok(nonce, scriptSrc);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.ok(scripts.length > 0);
    for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), tag);
    const again = (await fetch(`${server.baseUrl}/login`)).headers.get("content-security-policy");
    assert.notEqual(again, csp, "a fresh nonce per response");
    assert.equal(response.headers.get("strict-transport-security"), null, "no HSTS when PUBLIC_URL is http");
  });

  test("REST API answers are never cached", async () => {
    for (const apiPath of ["/api/0/organizations/", "/api/0/organizations/default/projects/"]) {
      assert.equal((await server.api(apiPath)).headers.get("cache-control"), "no-store", apiPath);
    }
    assert.equal((await fetch(`${server.baseUrl}/api/0/organizations/`)).headers.get("cache-control"), "no-store", "401 too");
  });

  test("DATA_DIR is created 0700 and the database files are 0600", () => {
    assert.equal(statSync(server.dataDir).mode & 0o777, 0o700);
    const files = readdirSync(server.dataDir).filter((name) => name.startsWith("periscope.sqlite"));
    assert.ok(files.includes("periscope.sqlite") && files.includes("periscope.sqlite-wal"), files.join(", "));
    for (const name of files) assert.equal(statSync(path.join(server.dataDir, name)).mode & 0o777, 0o600, name);
  });

  test("a region's HTML answer is not relayed as HTML through /monitoring", async () => {
    const host = new URL(upstreamUrl).host;
    const envelope = `${JSON.stringify({ dsn: `http://0123456789abcdef0123456789abcdef@${host}/5` })}\n{"type":"event"}\n{}`;
    const response = await fetch(`${server.baseUrl}/monitoring?o=1&p=5&r=us`, { method: "POST", body: envelope });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(await response.text(), "{}");
  });
});
