/**
 * Data scrubbing with the real `@sentry/browser` SDK in Chromium (issue 33): a page on another origin
 * sends an error carrying a password in `extra`, a bearer token and a card number in its message, a
 * token in a breadcrumb URL and a session cookie in its user data. None of them may be stored; the
 * event page, opened in the browser, shows where scrubbing happened.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { bundleBrowserApp, serveBrowserApp, type BrowserApp } from "../helpers/browser-app";
import { startServer, type TestServer } from "../helpers/server";

// Joined at run time in the page, so the bundle's source lines (which the SDK does not send, but a
// grep of the database would also find in frame context) never hold a whole secret.
const SECRETS = ["browser-extra-PLANT1", "browser-bearer-PLANT2", "browser-crumb-PLANT3", "browser-user-PLANT4", "5555555555554444"];

function bundleApp(dsn: string): Promise<string> {
  return bundleBrowserApp(
    `
        import * as Sentry from "@sentry/browser";
        const P = ["PL", "ANT"].join("");
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop-web@3.0.0", sendDefaultPii: true });
        Sentry.setExtra("password", "browser-extra-" + P + "1");
        Sentry.setExtra("visible", "browser-VISIBLE-MARKER");
        Sentry.setUser({ id: "u-3", session_token: "browser-user-" + P + "4" });
        Sentry.addBreadcrumb({ category: "fetch", type: "http", data: { url: "/api/cart?token=browser-crumb-" + P + "3", method: "GET" } });
        function checkout() {
          throw new Error("payment failed: Bearer browser-bearer-" + P + "2 card " + ["5555", "5555", "5555", "4444"].join(""));
        }
        document.getElementById("buy").addEventListener("click", () => checkout());
        window.__sentryReady = true;
      `,
    "scrub-entry.js",
  );
}

describe("data scrubbing with @sentry/browser in Chromium", () => {
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
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
    await periscope?.stop();
  });

  test("no planted secret is stored; the event page says what was filtered", { timeout: 120_000 }, async () => {
    await page.goto(shop.url);
    await page.waitForFunction(() => (window as unknown as { __sentryReady?: boolean }).__sentryReady === true);
    // The SDK also sends its session: the event's envelope is the one answered with an id.
    const sent = page.waitForResponse(
      async (response) =>
        response.url().startsWith(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/`) && typeof ((await response.json()) as { id?: unknown }).id === "string",
    );
    await page.click("#buy");
    const answer = await sent;
    assert.equal(answer.status(), 200);
    const eventId = ((await answer.json()) as { id: string }).id;

    // The raw file and WAL, byte by byte; then the row itself, inflated when SQLite deflated it
    // (from 8 KB on, src/storage/stored-payload.ts), where a byte search could not see it.
    const file = path.join(periscope.dataDir, "periscope.sqlite");
    const bytes = Buffer.concat([readFileSync(file), ...(existsSync(`${file}-wal`) ? [readFileSync(`${file}-wal`)] : [])]);
    for (const secret of SECRETS) assert.equal(bytes.includes(secret), false, `the database file holds ${secret}`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    const row = db.prepare<[string], { payload: string | Buffer }>("SELECT payload FROM events WHERE event_id = ?").get(eventId);
    db.close();
    assert.ok(row, "the event row");
    const stored = typeof row.payload === "string" ? row.payload : inflateRawSync(row.payload).toString("utf8");
    assert.ok(stored.includes("browser-VISIBLE-MARKER"), "the row keeps what is not secret");
    for (const secret of SECRETS) assert.equal(stored.includes(secret), false, `the events row holds ${secret}`);

    const event = (await (await periscope.api(`/api/0/projects/default/default/events/${eventId}/`)).json()) as { groupID: string };
    await page.goto(`${periscope.baseUrl}/organizations/default/issues/${event.groupID}/events/${eventId}`);
    const note = page.getByTestId("scrubbing-note");
    await note.waitFor();
    assert.match(await note.innerText(), /filtered by data scrubbing before the event was stored/);
    assert.ok((await page.getByTestId("filtered-value").count()) > 0, "[Filtered] values are marked");
    const html = await page.content();
    for (const secret of SECRETS) assert.equal(html.includes(secret), false, `the page shows ${secret}`);
  });
});
