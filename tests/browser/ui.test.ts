/**
 * The UI end to end: a real page in Chromium runs the real `@sentry/browser` SDK (bundled with
 * esbuild) against a real Periscope; the error it throws must show up in the issues list, open with
 * its stack trace, and be resolvable. Then an empty project must show its DSN to get started.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { startServer, type TestServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");
const ERROR_MESSAGE = "Checkout exploded while pricing the cart";
const WAIT_MS = 30_000;

/** The browser app: the SDK with the Periscope DSN, then an uncaught error from a named function. */
async function bundleApp(dsn: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
        import * as Sentry from "@sentry/browser";
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop-web@2.1.0", environment: "browser-test" });
        function priceCartOnCheckout() {
          throw new Error(${JSON.stringify(ERROR_MESSAGE)});
        }
        document.getElementById("buy").addEventListener("click", () => priceCartOnCheckout());
        window.__sentryReady = true;
      `,
      resolveDir: root,
      sourcefile: "shop-entry.js",
      loader: "js",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: false,
    keepNames: true,
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild produced no output");
  return output.text;
}

/** Serves the shop page and its bundle from another origin than Periscope, as a real site would. */
async function serveShop(bundle: string): Promise<{ server: Server; url: string }> {
  const html = `<!doctype html><html><head><title>Shop</title><script src="/shop-app.js" defer></script></head>
    <body><button id="buy">Buy</button></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === "/shop-app.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      res.end(bundle);
    } else if (req.url === "/") {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(html);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Reloads the issues list until a row with `text` appears (ingest is asynchronous to the page). */
async function waitForIssueRow(page: Page, url: string, text: string) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await page.goto(url);
    const row = page.getByTestId("issue-row").filter({ hasText: text });
    if ((await row.count()) > 0) return row.first();
    if (Date.now() > deadline) throw new Error(`no issue row with "${text}" after ${WAIT_MS} ms`);
    await page.waitForTimeout(500);
  }
}

describe("Periscope UI in Chromium", () => {
  let periscope: TestServer;
  let shop: { server: Server; url: string };
  let browser: Browser;
  let page: Page;

  before(async () => {
    periscope = await startServer(ADMIN_ENV);
    shop = await serveShop(await bundleApp(periscope.dsn));
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginInBrowser(page, periscope.baseUrl);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
    await periscope?.stop();
  });

  test("an uncaught browser error becomes an issue with its stack trace, and can be resolved", { timeout: 120_000 }, async () => {
    const issuesUrl = `${periscope.baseUrl}/organizations/${periscope.organizationSlug}/issues?project=${periscope.projectId}`;

    await page.goto(shop.url);
    await page.waitForFunction(() => (window as unknown as { __sentryReady?: boolean }).__sentryReady === true);
    const sent = page.waitForResponse((response) => response.url().startsWith(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/`));
    await page.click("#buy");
    assert.equal((await sent).status(), 200);

    const row = await waitForIssueRow(page, issuesUrl, ERROR_MESSAGE);
    const rowText = await row.innerText();
    assert.match(rowText, new RegExp(`^Error: ${ERROR_MESSAGE}$`, "m"));
    assert.match(rowText, /\bDEFAULT-\d+\b/);

    // Keyboard: j focuses the first row, Enter opens it (once the list is hydrated).
    await page.locator("[data-keyboard-nav=ready]").waitFor();
    await page.keyboard.press("j");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "issue-row");
    await Promise.all([page.waitForURL(/\/issues\/\d+$/), page.keyboard.press("Enter")]);

    assert.equal(await page.getByTestId("issue-title").innerText(), `Error: ${ERROR_MESSAGE}`);
    const trace = page.getByTestId("stack-trace").first();
    const throwingFrame = trace.getByTestId("frame-function").filter({ hasText: /^priceCartOnCheckout$/ });
    assert.equal(await throwingFrame.first().isVisible(), true, "the throwing function is shown in the stack trace");
    const files = await trace.getByTestId("frame-file").allInnerTexts();
    assert.ok(
      files.some((file) => file.startsWith(`${shop.url}/shop-app.js:`)),
      `a frame names the bundle file, got: ${files.join(", ")}`,
    );
    assert.equal(await page.getByTestId("exception-type").first().innerText(), "Error");
    assert.equal(await page.getByTestId("issue-status").innerText(), "New");

    await page.getByRole("button", { name: "Resolve", exact: true }).click();
    await page.getByTestId("issue-status").filter({ hasText: /^Resolved$/ }).waitFor();
    await page.getByRole("button", { name: "Unresolve", exact: true }).waitFor();
    await page.reload();
    assert.equal(await page.getByTestId("issue-status").innerText(), "Resolved");

    // Resolved issues leave the default (unresolved) list.
    await page.goto(issuesUrl);
    assert.equal(await page.getByTestId("issue-row").filter({ hasText: ERROR_MESSAGE }).count(), 0);
    await page.getByRole("heading", { name: "No unresolved issues" }).waitFor();
  });

  test("a new project without events shows its DSN and setup snippets", { timeout: 60_000 }, async () => {
    await page.goto(`${periscope.baseUrl}/organizations/${periscope.organizationSlug}/projects`);

    // Invalid input is answered inline, not with an error page.
    await page.getByLabel("Name").fill("Empty Shop");
    await page.getByLabel("Slug").fill("Not A Slug!");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("Slug may contain only lower-case letters, digits, '-' and '_'").waitFor();

    await page.getByLabel("Slug").fill("empty-shop");
    await Promise.all([page.waitForURL(/\/settings\/default\/projects\/empty-shop\/keys\?created=1$/), page.getByRole("button", { name: "Create project" }).click()]);
    const keysDsn = await page.getByTestId("dsn").first().innerText();
    const dsn = new URL(keysDsn);
    assert.equal(dsn.origin.replace(`${dsn.username}@`, ""), periscope.baseUrl);
    assert.match(dsn.username, /^[0-9a-f]{32}$/);
    assert.notEqual(keysDsn, periscope.dsn);
    const projectId = dsn.pathname.slice(1);

    await page.goto(`${periscope.baseUrl}/organizations/${periscope.organizationSlug}/issues?project=${projectId}`);
    const waiting = page.getByTestId("waiting-for-events");
    await waiting.getByRole("heading", { name: "Waiting for the first event" }).waitFor();
    assert.equal(await waiting.getByTestId("dsn").innerText(), keysDsn);
    const initSnippet = await waiting.locator("pre", { hasText: "Sentry.init" }).innerText();
    assert.ok(initSnippet.includes(`dsn: "${keysDsn}"`), `the setup snippet carries the DSN:\n${initSnippet}`);
    assert.equal(await page.getByTestId("issue-row").count(), 0);
  });

  test("the theme choice is stored in a cookie and rendered by the server", { timeout: 30_000 }, async () => {
    const context = await browser.newContext({ colorScheme: "light" });
    const themed = await context.newPage();
    await loginInBrowser(themed, periscope.baseUrl);
    await themed.goto(`${periscope.baseUrl}/organizations/${periscope.organizationSlug}/projects`);
    const theme = () => themed.evaluate(() => document.documentElement.getAttribute("data-theme"));
    assert.equal(await theme(), null, "no stored choice: the page follows prefers-color-scheme");
    const toggle = themed.getByTestId("theme-toggle");
    await toggle.click();
    assert.equal(await theme(), "light");
    await toggle.click();
    assert.equal(await theme(), "dark");
    await themed.reload();
    assert.equal(await theme(), "dark", "the server renders the stored choice, so there is no flash");
    assert.equal(await themed.evaluate(() => getComputedStyle(document.documentElement).colorScheme), "dark");
    await toggle.click();
    assert.equal(await theme(), null);
    assert.deepEqual((await context.cookies()).filter((cookie) => cookie.name === "theme"), []);
    await context.close();
  });

  test("unknown organisations and issues answer 404", { timeout: 30_000 }, async () => {
    const org = await page.goto(`${periscope.baseUrl}/organizations/no-such-org/issues`);
    assert.equal(org?.status(), 404);
    const issue = await page.goto(`${periscope.baseUrl}/organizations/${periscope.organizationSlug}/issues/999999`);
    assert.equal(issue?.status(), 404);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
  });
});
