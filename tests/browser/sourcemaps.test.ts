/**
 * Source maps end to end in a real browser, on each engine: a TypeScript app that includes the real
 * `@sentry/browser`, bundled and minified by esbuild, debug ids injected and maps uploaded by the
 * real sentry-cli, served from its own origin to Chromium. A click throws; the stored event and the
 * issue page (seen in Chromium, signed in) show the original files, lines, functions and source lines.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { buildBundle, type JsBuild } from "../helpers/js-builds";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";
import { cartSources, defaultProjectSlug, exceptionOf, lineOf, sentryCli, storedEvent } from "../helpers/sourcemap-e2e";

const root = path.resolve(import.meta.dirname, "..", "..");

/** The entry: the SDK with Periscope's DSN, and a button whose click checks out a cart (and throws). */
function appSources(dsn: string): Record<string, string> {
  return {
    "main.ts": [
      'import * as Sentry from "@sentry/browser";',
      'import { checkoutCart } from "./cart";',
      "",
      "Sentry.init({",
      `  dsn: ${JSON.stringify(dsn)},`,
      '  release: "shop-web@5.0.0",',
      "  beforeSend: (event) => {",
      "    (window as { sentEventId?: string }).sentEventId = event.event_id;",
      "    return event;",
      "  },",
      "});",
      "",
      'document.getElementById("buy")!.addEventListener("click", function onBuyClicked() {',
      '  checkoutCart([{ sku: "mug", price: 9, quantity: 1 }, { sku: "saucer", price: 4, quantity: 2 }]);',
      "});",
      "(window as { appReady?: boolean }).appReady = true;",
      "",
    ].join("\n"),
    ...cartSources("BrowserPricingError"),
  };
}

/** Serves the built files under /static/ and a page that loads the bundle, on an origin of its own. */
async function serveShop(app: JsBuild): Promise<{ server: Server; url: string }> {
  const html = '<!doctype html><html><head><title>Shop</title><script src="/static/app.min.js" defer></script></head><body><button id="buy">Buy</button></body></html>';
  const server = createServer((request, response) => {
    if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(html);
    else if (request.url === "/static/app.min.js") response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(app.file));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function suite(engine: "sqlite" | "postgres"): void {
  describe(`source maps in Chromium with sentry-cli and @sentry/browser: ${engine}`, { timeout: 180_000 }, () => {
    let periscope: TestServer;
    let schema: TestSchema | null = null;
    let work: string;
    let browser: Browser;
    let page: Page;

    before(async () => {
      assert.ok(chromiumPath(), "Chromium is installed");
      work = mkdtempSync(path.join(tmpdir(), "periscope-sourcemaps-browser-"));
      if (engine === "postgres") schema = await freshSchema();
      periscope = await startServer({ ...ADMIN_ENV, ...(schema ? { DATABASE_URL: schema.url } : {}) });
      browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
      page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    });
    after(async () => {
      await browser?.close();
      await periscope?.stop();
      await schema?.drop();
      rmSync(work, { recursive: true, force: true });
    });

    test("a minified browser error shows the original files, lines, functions and source lines", async () => {
      const sources = appSources(periscope.dsn);
      const app = await buildBundle({ sources, entry: "main.ts", outDir: work, platform: "browser", esbuild: { target: "es2020", nodePaths: [path.join(root, "node_modules")] } });
      const mapSources = (JSON.parse(app.map) as { sources: string[] }).sources;
      assert.ok(mapSources.some((source) => source.includes("node_modules/@sentry/browser/")), "the SDK is bundled in");
      const projectSlug = await defaultProjectSlug(periscope);
      const uploaded = await sentryCli(periscope, projectSlug, ["sourcemaps", "upload", "--release", "shop-web@5.0.0", "--url-prefix", "~/static", app.dir], work);
      assert.match(uploaded, /File processing complete/);

      const shop = await serveShop(app);
      try {
        await page.goto(shop.url);
        await page.waitForFunction(() => (window as { appReady?: boolean }).appReady === true);
        const sent = page.waitForResponse((response) => response.url().startsWith(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/`));
        await page.click("#buy");
        assert.equal((await sent).status(), 200);
      } finally {
        await new Promise((resolve) => shop.server.close(resolve));
      }
      const eventId = await page.evaluate(() => (window as { sentEventId?: string }).sentEventId);
      assert.match(eventId ?? "", /^[0-9a-f]{32}$/);

      const event = await storedEvent(periscope, projectSlug, eventId!);
      const exception = exceptionOf(event);
      assert.deepEqual([exception.type, exception.value], ["BrowserPricingError", "no bulk discount for 2 x saucer"]);
      const pricing = sources["pricing.ts"]!;
      const throwLine = lineOf(pricing, "throw new BrowserPricingError");
      const inApp = exception.frames.filter((frame) => frame.inApp);
      assert.deepEqual(
        inApp.map((frame) => [frame.filename, frame.lineNo, frame.function]),
        [
          ["src/main.ts", lineOf(sources["main.ts"]!, "checkoutCart(["), "onBuyClicked"],
          ["src/cart.ts", lineOf(sources["cart.ts"]!, "total += priceOfLine(line)"), "checkoutCart"],
          ["src/pricing.ts", lineOf(pricing, "return applyBulkDiscount(line)"), "priceOfLine"],
          ["src/pricing.ts", throwLine, "applyBulkDiscount"],
        ],
      );
      const top = exception.frames.at(-1)!;
      assert.equal(top.colNo, pricing.split("\n")[throwLine - 1]!.indexOf("new BrowserPricingError") + 1);
      assert.deepEqual(top.context.find(([line]) => line === throwLine)?.[1], pricing.split("\n")[throwLine - 1]);
      assert.deepEqual(top.data, { symbolicated: true, resolved_with: "debug-id", sourcemap: "~/static/app.min.js.map" });
      // The SDK's own code in the bundle (its wrapper around the click handler) resolves to node_modules: not the app's.
      const sdkFrames = exception.frames.filter((frame) => frame.filename?.includes("node_modules/@sentry/browser/"));
      assert.ok(sdkFrames.length > 0 && sdkFrames.every((frame) => !frame.inApp), JSON.stringify(exception.frames));
      assert.ok(exception.rawFrames?.every((frame) => frame.absPath === null || frame.absPath.startsWith("http://127.0.0.1:")), "the sent frames are kept");
      assert.deepEqual(event.errors, []);

      // The issue page, in Chromium: the newest in-app frame opens with its source lines.
      await loginInBrowser(page, periscope.baseUrl);
      await page.goto(`${periscope.baseUrl}/organizations/${periscope.organizationSlug}/issues/${event.groupID}`);
      const trace = page.getByTestId("stack-trace").first();
      const files = await trace.getByTestId("frame-file").allInnerTexts();
      const functions = await trace.getByTestId("frame-function").allInnerTexts();
      const shown = files.map((file, index) => [file, functions[index]]).filter(([file]) => file!.startsWith("src/"));
      assert.deepEqual(
        shown,
        [...inApp].reverse().map((frame) => [`src/${frame.filename!.slice(4)}:${frame.lineNo}:${frame.colNo}`, frame.function]),
      );
      const current = trace.locator("li[aria-current=true] code").first();
      assert.equal(await current.isVisible(), true, "the throwing line is shown");
      assert.equal(await current.innerText(), pricing.split("\n")[throwLine - 1]);
      assert.equal(await trace.getByText("app.min.js", { exact: false }).count(), 0, "no frame is shown minified");
    });
  });
}

suite("sqlite");
if (await postgresForTests("source maps in Chromium: postgres")) suite("postgres");
