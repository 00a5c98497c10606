/**
 * Inbound filters (issue 33) against a real server, set through Sentry's filter and project API: the
 * real `@sentry/node` SDK's errors (this process, so from 127.0.0.1) and raw envelopes with a
 * crawler's or an old browser's user agent are dropped and counted as outcome `filtered` with
 * Sentry's reason, and are not stored; with the filter off the same traffic is stored. Filters decide
 * before scrubbing (with "scrub IP addresses" on the IP filter still sees the client) and apply to the
 * SDK's streamed spans (per span) and to transactions (the transaction and its spans).
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, beforeEach, describe, it } from "node:test";
import type { OutcomeTotal } from "../../src/model";
import { readdressedEnvelope } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const IE_11 = "Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko";
const CHROME_120 = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

let server: TestServer;

async function put(path: string, body: unknown): Promise<number> {
  const response = await server.api(path, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/** Turns every filter off, then sets the given ones. */
async function filters(on: { active?: string[]; legacy?: string[]; options?: Record<string, string> } = {}): Promise<void> {
  for (const id of ["browser-extensions", "localhost", "web-crawlers"]) {
    assert.equal(await put(`/api/0/projects/default/default/filters/${id}/`, { active: on.active?.includes(id) ?? false }), 204);
  }
  assert.equal(await put("/api/0/projects/default/default/filters/legacy-browsers/", { subfilters: on.legacy ?? [] }), 204);
  const options = { "filters:error_messages": "", "filters:releases": "", "filters:blacklisted_ips": "", ...on.options };
  assert.equal(await put("/api/0/projects/default/default/", { options }), 200);
}

async function filtered(reason: string, category = "error"): Promise<number> {
  const totals = await server.withStorage((storage) => storage.outcomes.totals(server.projectId, Date.now() - 3_600_000));
  return (totals as OutcomeTotal[]).filter((row) => row.outcome === "filtered" && row.category === category && row.reason === reason).reduce((sum, row) => sum + row.quantity, 0);
}

/** One segment span with two children through the real SDK (streamed); resolves with its trace id once delivered. */
async function sdkSpans(name: string): Promise<string> {
  let traceId = "";
  Sentry.startSpan({ name, forceTransaction: true }, (span) => {
    traceId = span.spanContext().traceId;
    Sentry.startSpan({ name: "child one" }, () => undefined);
    Sentry.startSpan({ name: "child two" }, () => undefined);
  });
  assert.equal(await Sentry.flush(5000), true);
  return traceId;
}

async function spansOfTrace(traceId: string): Promise<number> {
  const rows = await server.withStorage((storage) => storage.spans.trace([server.projectId], traceId));
  return (rows as unknown[]).length;
}

async function stored(eventId: string): Promise<boolean> {
  const response = await server.api(`/api/0/projects/default/default/events/${eventId}/`);
  await response.arrayBuffer();
  return response.status === 200;
}

/** One error through the real SDK; resolves with its event id once delivered. */
async function sdkError(error: Error): Promise<string> {
  const id = Sentry.captureException(error);
  assert.equal(await Sentry.flush(5000), true);
  return id;
}

/** A raw envelope (the JavaScript SDK's message event) sent with the given user agent. */
async function fromUserAgent(userAgent: string): Promise<{ status: number; eventId: string }> {
  const { body, eventId } = readdressedEnvelope("node-message", { publicKey: server.publicKey }, randomUUID().replace(/-/g, ""));
  const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, {
    method: "POST",
    headers: { "user-agent": userAgent },
    body: new Uint8Array(body),
  });
  await response.arrayBuffer();
  return { status: response.status, eventId };
}

describe("inbound filters", () => {
  before(async () => {
    server = await startServer();
    Sentry.init({ dsn: server.dsn, defaultIntegrations: false, release: "web@2.0.0-beta.1", tracesSampleRate: 1 });
  });
  after(async () => {
    await Sentry.close(2000);
    await server?.stop();
  });
  beforeEach(() => filters());

  it("lists Sentry's four filters, and refuses unknown ones and bad entries by name", async () => {
    const response = await server.api("/api/0/projects/default/default/filters/");
    const list = (await response.json()) as { id: string; active: boolean | string[] }[];
    assert.deepEqual(list.map((filter) => [filter.id, filter.active]), [["browser-extensions", false], ["localhost", false], ["legacy-browsers", false], ["web-crawlers", false]]);
    assert.equal(await put("/api/0/projects/default/default/filters/nope/", { active: true }), 404);
    assert.equal(await put("/api/0/projects/default/default/filters/legacy-browsers/", { subfilters: ["netscape"] }), 400);
    const bad = await server.api("/api/0/projects/default/default/", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ options: { "filters:blacklisted_ips": "10.0.0.0/33" } }),
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /filters:blacklisted_ips: must be an IP address or a CIDR range/);
  });

  it("drops the SDK's errors whose message matches a glob (error-message)", async () => {
    await filters({ options: { "filters:error_messages": "*ResizeObserver loop*\nTypeError: ignored *" } });
    const dropped = await sdkError(new Error("ResizeObserver loop limit exceeded"));
    const kept = await sdkError(new Error("a real problem"));
    assert.equal(await filtered("error-message"), 1);
    assert.deepEqual([await stored(dropped), await stored(kept)], [false, true]);
  });

  it("drops the SDK's errors by release glob (release-version)", async () => {
    await filters({ options: { "filters:releases": "*-beta*" } });
    const dropped = await sdkError(new Error("from a beta"));
    assert.equal(await filtered("release-version"), 1);
    assert.equal(await stored(dropped), false);
  });

  it("drops errors from the client's address range (ip-address) and from localhost (localhost)", async () => {
    await filters({ options: { "filters:blacklisted_ips": "127.0.0.0/8" } });
    assert.equal(await stored(await sdkError(new Error("from a blocked range"))), false);
    assert.equal(await filtered("ip-address"), 1);
    await filters({ active: ["localhost"] });
    assert.equal(await stored(await sdkError(new Error("from localhost"))), false);
    assert.equal(await filtered("localhost"), 1);
    await filters({ options: { "filters:blacklisted_ips": "198.51.100.0/24" } });
    assert.equal(await stored(await sdkError(new Error("from elsewhere"))), true);
  });

  it("drops errors thrown in a browser extension (browser-extensions)", async () => {
    await filters({ active: ["browser-extensions"] });
    const error = new Error("boom in an extension");
    error.stack = "Error: boom in an extension\n    at inject (chrome-extension://abcdefghijklmnop/content.js:10:5)";
    assert.equal(await stored(await sdkError(error)), false);
    assert.equal(await filtered("browser-extensions"), 1);
  });

  it("drops web crawlers and the chosen legacy browsers by user agent", async () => {
    await filters({ active: ["web-crawlers"], legacy: ["ie"] });
    const crawler = await fromUserAgent(GOOGLEBOT);
    const oldBrowser = await fromUserAgent(IE_11);
    const modern = await fromUserAgent(CHROME_120);
    // Filtered events are still answered 200, as Relay does: the SDK has nothing to retry.
    assert.deepEqual([crawler.status, oldBrowser.status, modern.status], [200, 200, 200]);
    assert.equal(await filtered("web-crawlers"), 1);
    assert.equal(await filtered("legacy-browsers"), 1);
    assert.deepEqual([await stored(crawler.eventId), await stored(oldBrowser.eventId), await stored(modern.eventId)], [false, false, true]);
  });

  it("with IP addresses scrubbed, still drops errors from the client's address (filters decide before scrubbing)", async () => {
    assert.equal(await put("/api/0/projects/default/default/", { scrubIPAddresses: true }), 200);
    try {
      const [ip, local] = [await filtered("ip-address"), await filtered("localhost")];
      await filters({ options: { "filters:blacklisted_ips": "127.0.0.0/8" } });
      assert.equal(await stored(await sdkError(new Error("blocked although scrubbed"))), false);
      assert.equal(await filtered("ip-address"), ip + 1);
      await filters({ active: ["localhost"] });
      assert.equal(await stored(await sdkError(new Error("local although scrubbed"))), false);
      assert.equal(await filtered("localhost"), local + 1);
    } finally {
      assert.equal(await put("/api/0/projects/default/default/", { scrubIPAddresses: false }), 200);
    }
  });

  it("drops the SDK's streamed spans by release and address, counted filtered per span", async () => {
    // @sentry/node 11 streams spans (v2 span containers) rather than sending transactions.
    await filters({ options: { "filters:releases": "*-beta*" } });
    const before = await filtered("release-version", "span");
    const dropped = await sdkSpans("GET /beta");
    // The segment and its two children.
    assert.equal(await filtered("release-version", "span"), before + 3);
    assert.equal(await spansOfTrace(dropped), 0);
    await filters({ options: { "filters:blacklisted_ips": "127.0.0.1" } });
    const ip = await filtered("ip-address", "span");
    await sdkSpans("GET /blocked");
    assert.equal(await filtered("ip-address", "span"), ip + 3);
    // Error-only filters leave spans alone.
    await filters({ options: { "filters:error_messages": "*" }, active: ["browser-extensions"] });
    assert.equal(await spansOfTrace(await sdkSpans("GET /kept")), 3);
  });

  it("drops an SDK transaction by release or address, counting the transaction and its spans", async () => {
    const send = async () => {
      const { body } = readdressedEnvelope("telemetry/node-transaction-task", { publicKey: server.publicKey });
      const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, { method: "POST", body: new Uint8Array(body) });
      await response.arrayBuffer();
      assert.equal(response.status, 200);
      const transaction = JSON.parse(body.toString("latin1").split("\n")[2]!) as { release: string; spans: unknown[] };
      return { release: transaction.release, spans: transaction.spans.length + 1 };
    };
    await filters({ options: { "filters:releases": "periscope-fixtures@*" } });
    const [transactions, spans] = [await filtered("release-version", "transaction"), await filtered("release-version", "span")];
    const sent = await send();
    assert.equal(sent.release, "periscope-fixtures@1.0.0");
    assert.equal(await filtered("release-version", "transaction"), transactions + 1);
    assert.equal(await filtered("release-version", "span"), spans + sent.spans);
    await filters({ options: { "filters:blacklisted_ips": "127.0.0.0/8" } });
    const byIp = await filtered("ip-address", "transaction");
    await send();
    assert.equal(await filtered("ip-address", "transaction"), byIp + 1);
  });
});
