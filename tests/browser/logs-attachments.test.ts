/**
 * Logs and attachments with the real `@sentry/browser` SDK in Chromium (issue 38): a page on
 * another origin writes log lines (`Sentry.logger.*`, `enableLogs`) and sends an error with an
 * attachment. The log explorer shows the lines, filtered by level, search and attribute, with their
 * attributes and a trace link; the event page lists the attachment as a download.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { eventually } from "../helpers/monitoring";
import { bundleBrowserApp, serveBrowserApp, type BrowserApp } from "../helpers/browser-app";
import { startServer, type TestServer } from "../helpers/server";


function bundleApp(dsn: string): Promise<string> {
  return bundleBrowserApp(
    `
        import * as Sentry from "@sentry/browser";
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop-web@4.0.0", enableLogs: true, tracesSampleRate: 1 });
        document.getElementById("buy").addEventListener("click", async () => {
          // A few ms apart: lines logged in the same millisecond share a timestamp, and the
          // newest-first order the test checks would then be a tie.
          const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
          Sentry.logger.info("browser checkout started", { "cart.items": 3 });
          await tick();
          Sentry.logger.warn("browser stock low", { sku: "sku-9" });
          await tick();
          Sentry.logger.error("browser payment declined", { "order.id": "o-77", retry: false });
          Sentry.withScope((scope) => {
            scope.addAttachment({ filename: "cart.json", data: JSON.stringify({ items: 3 }), contentType: "application/json" });
            Sentry.captureException(new Error("checkout failed with attachment"));
          });
          await Sentry.flush(5000);
          window.__sent = true;
        });
        window.__sentryReady = true;
      `,
    "logs-entry.js",
  );
}

describe("logs and attachments from @sentry/browser in Chromium", () => {
  let periscope: TestServer;
  let shop: BrowserApp;
  let browser: Browser;
  let page: Page;

  before(async () => {
    periscope = await startServer(ADMIN_ENV);
    shop = await serveBrowserApp(await bundleApp(periscope.dsn));
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
    page = await browser.newPage();
    await loginInBrowser(page, periscope.baseUrl);
    await page.goto(shop.url);
    await page.waitForFunction(() => (window as unknown as { __sentryReady?: boolean }).__sentryReady === true);
    await page.click("#buy");
    await page.waitForFunction(() => (window as unknown as { __sent?: boolean }).__sent === true);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
    await periscope?.stop();
  });

  test("the log explorer shows the lines, filters them and opens their attributes", { timeout: 120_000 }, async () => {
    const rows = await eventually("the browser's log lines", async () => {
      const response = await periscope.api(`/api/0/organizations/default/events/?dataset=ourlogs&field=message&field=severity&field=trace&field=order.id&field=sentry.sdk.name&query=browser`);
      const body = (await response.json()) as { data: Record<string, unknown>[] };
      return body.data.length === 3 ? body.data : undefined;
    });
    assert.deepEqual(rows.map((row) => [row.message, row.severity]), [
      ["browser payment declined", "error"], ["browser stock low", "warn"], ["browser checkout started", "info"],
    ]);
    assert.equal(rows[0]!["order.id"], "o-77");
    assert.equal(rows[0]!["sentry.sdk.name"], "sentry.javascript.browser");
    const traceId = String(rows[0]!.trace);
    assert.match(traceId, /^[0-9a-f]{32}$/);

    await page.goto(`${periscope.baseUrl}/organizations/default/logs?query=browser`);
    const bodies = () => page.getByTestId("log-body").allInnerTexts();
    assert.deepEqual(await bodies(), ["browser payment declined", "browser stock low", "browser checkout started"]);
    await page.getByLabel("Level").selectOption("error");
    await page.waitForURL(/level=error/);
    assert.deepEqual(await bodies(), ["browser payment declined"]);
    const line = page.getByTestId("log-line").first();
    await line.locator("summary").click();
    const attributes = await line.getByTestId("log-attributes").innerText();
    assert.match(attributes, /order\.id\s+o-77/);
    assert.match(attributes, /retry\s+false/);
    assert.equal(await line.getByTestId("log-trace-link").getAttribute("href"), `/organizations/default/traces/${traceId}`);

    await page.goto(`${periscope.baseUrl}/organizations/default/logs?query=${encodeURIComponent("sku:sku-9")}`);
    assert.deepEqual(await bodies(), ["browser stock low"]);
    await page.goto(`${periscope.baseUrl}/organizations/default/logs?query=${encodeURIComponent("severity:loud")}`);
    assert.match(await page.getByTestId("logs-problem").innerText(), /unknown severity loud/);

    // The live tail: a line written after the page opened appears without reloading it.
    await page.goto(`${periscope.baseUrl}/organizations/default/logs?query=browser&live=1`);
    assert.equal(await page.getByTestId("live-tail").getAttribute("aria-pressed"), "true");
    const sent = await fetch(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/?sentry_key=${periscope.publicKey}&sentry_version=7`, {
      method: "POST",
      body: [
        "{}",
        JSON.stringify({ type: "log", item_count: 1, content_type: "application/vnd.sentry.items.log+json" }),
        JSON.stringify({ items: [{ timestamp: Date.now() / 1000, level: "info", body: "browser tail line", attributes: {} }] }),
      ].join("\n"),
    });
    assert.equal(sent.status, 200);
    await page.getByText("browser tail line").waitFor({ timeout: 15_000 });
  });

  test("the event page lists the attachment as a download", { timeout: 120_000 }, async () => {
    const issues = await eventually("the issue", async () => {
      const response = await periscope.api(`/api/0/projects/default/default/issues/?query=${encodeURIComponent("checkout failed")}`);
      const body = (await response.json()) as { id: string }[];
      return body.length > 0 ? body : undefined;
    });
    await page.goto(`${periscope.baseUrl}/organizations/default/issues/${issues[0]!.id}`);
    const link = page.getByTestId("event-attachment").getByRole("link", { name: "cart.json" });
    await link.waitFor();
    const href = await link.getAttribute("href");
    assert.ok(href?.endsWith("/?download=1"));
    const download = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, disposition: response.headers.get("content-disposition"), type: response.headers.get("content-type"), text: await response.text() };
    }, href!);
    assert.deepEqual(download, { status: 200, disposition: `attachment; filename="cart.json"; filename*=UTF-8''cart.json`, type: "application/json", text: '{"items":3}' });
  });
});
