/**
 * The real `@sentry/browser` in Chromium, on a page of its own origin (http://127.0.0.1:<port>):
 * the project's allowed domains refuse its envelopes from an origin not on the list (403, nothing
 * stored) and accept them from one on it; the browser-extension filter drops an error thrown in an
 * extension's script and the localhost filter an error from a page on 127.0.0.1, each counted as
 * outcome `filtered` with its reason.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { OutcomeTotal } from "../../src/model";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { buildBundle, type JsBuild } from "../helpers/js-builds";
import { startServer, type TestServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");

/** The SDK, and two buttons: one throws from the page, one an error whose stack is an extension's. */
function appSource(dsn: string): string {
  return [
    'import * as Sentry from "@sentry/browser";',
    `Sentry.init({ dsn: ${JSON.stringify(dsn)}, defaultIntegrations: false });`,
    'document.getElementById("page")!.addEventListener("click", () => {',
    '  (window as { lastId?: string }).lastId = Sentry.captureException(new Error("thrown by the page"));',
    "});",
    'document.getElementById("extension")!.addEventListener("click", () => {',
    '  const error = new Error("thrown by an extension");',
    '  error.stack = "Error: thrown by an extension\\n    at inject (chrome-extension://abcdefghijklmnopabcdefghijklmnop/content.js:10:5)";',
    '  (window as { lastId?: string }).lastId = Sentry.captureException(error);',
    "});",
    "(window as { appReady?: boolean }).appReady = true;",
  ].join("\n");
}

async function serve(app: JsBuild): Promise<{ server: Server; url: string }> {
  const html = '<!doctype html><html><head><script src="/app.js" defer></script></head><body><button id="page">Page</button><button id="extension">Extension</button></body></html>';
  const server = createServer((request, response) => {
    if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(html);
    else if (request.url === "/app.js") response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(app.file));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("allowed domains and inbound filters with @sentry/browser in Chromium", { timeout: 180_000 }, () => {
  let periscope: TestServer;
  let shop: { server: Server; url: string };
  let work: string;
  let browser: Browser;
  let page: Page;

  const put = async (apiPath: string, body: unknown) => {
    const response = await periscope.api(apiPath, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    assert.ok(response.status === 200 || response.status === 204, `${apiPath}: ${response.status}`);
  };

  /** Clicks a button; resolves with the envelope answer's status and the event id the SDK gave. */
  const click = async (button: "page" | "extension"): Promise<{ status: number; eventId: string }> => {
    const sent = page.waitForResponse((response) => response.url().startsWith(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/`));
    await page.click(`#${button}`);
    const status = (await sent).status();
    return { status, eventId: (await page.evaluate(() => (window as { lastId?: string }).lastId)) ?? "" };
  };

  const stored = async (eventId: string) => {
    const response = await periscope.api(`/api/0/projects/default/default/events/${eventId}/`);
    await response.arrayBuffer();
    return response.status === 200;
  };

  const filtered = async (reason: string) => {
    const totals = (await periscope.withStorage((storage) => storage.outcomes.totals(periscope.projectId, Date.now() - 3_600_000))) as OutcomeTotal[];
    return totals.filter((row) => row.outcome === "filtered" && row.reason === reason).reduce((sum, row) => sum + row.quantity, 0);
  };

  before(async () => {
    assert.ok(chromiumPath(), "Chromium is installed");
    work = mkdtempSync(path.join(tmpdir(), "periscope-origins-browser-"));
    periscope = await startServer();
    const app = await buildBundle({ sources: { "main.ts": appSource(periscope.dsn) }, entry: "main.ts", outDir: work, platform: "browser", esbuild: { target: "es2020", nodePaths: [path.join(root, "node_modules")] } });
    shop = await serve(app);
    browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
    page = await browser.newPage();
    await page.goto(shop.url);
    await page.waitForFunction(() => (window as { appReady?: boolean }).appReady === true);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
    await periscope?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test("refuses the SDK from an origin outside the allowed domains and accepts it from one inside", async () => {
    await put("/api/0/projects/default/default/", { allowedDomains: ["shop.example.com"] });
    const refused = await click("page");
    assert.equal(refused.status, 403);
    assert.equal(await stored(refused.eventId), false);
    await put("/api/0/projects/default/default/", { allowedDomains: ["shop.example.com", "127.0.0.1"] });
    const accepted = await click("page");
    assert.equal(accepted.status, 200);
    assert.equal(await stored(accepted.eventId), true);
  });

  test("drops an error thrown in a browser extension, and one from a page on localhost", async () => {
    await put("/api/0/projects/default/default/", { allowedDomains: ["*"] });
    await put("/api/0/projects/default/default/filters/browser-extensions/", { active: true });
    const extension = await click("extension");
    assert.equal(extension.status, 200);
    assert.equal(await stored(extension.eventId), false);
    assert.equal(await filtered("browser-extensions"), 1);
    const fromPage = await click("page");
    assert.equal(await stored(fromPage.eventId), true);

    await put("/api/0/projects/default/default/filters/localhost/", { active: true });
    const local = await click("page");
    assert.equal(local.status, 200);
    assert.equal(await stored(local.eventId), false);
    assert.equal(await filtered("localhost"), 1);
  });
});
