/**
 * Source maps end to end with real clients, on each engine: a small TypeScript program bundled and
 * minified by esbuild, debug ids injected and maps uploaded by the real sentry-cli, then run under
 * node with the real @sentry/node pointed at Periscope. It throws; the stored event and the issue
 * page must show the original files, lines, functions and source lines. Also: two builds of the
 * same code are one issue, the older release-file path (no debug ids) resolves, and a frame whose
 * map is unknown says why.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { sessionCookie } from "../helpers/browser-login";
import { buildBundle, positionOf, type JsBuild } from "../helpers/js-builds";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { OWNER_EMAIL, OWNER_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { cartSources, defaultProjectSlug, exceptionOf, lineOf, framesOnPage, pageHtml, sentryCli, storedEvent, type FrameJson } from "../helpers/sourcemap-e2e";

const run = promisify(execFile);
const NO_ARTIFACTS_REASON = "the project has no uploaded source maps (no artifact bundle or release file), so its JavaScript frames stay as sent";
const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * The program: main.ts starts the SDK and checks out a cart, whose pricing throws `errorName`
 * (one per test, so each test's events form their own issue).
 */
function programSources(errorName: string): Record<string, string> {
  return {
    "main.ts": [
      'import * as Sentry from "@sentry/node";',
      'import { checkoutCart } from "./cart";',
      "",
      "const prefix = process.env.APP_URL_PREFIX;",
      "Sentry.init({",
      "  dsn: process.env.APP_DSN,",
      "  release: process.env.APP_RELEASE,",
      "  dist: process.env.APP_DIST,",
      "  integrations: prefix ? [Sentry.rewriteFramesIntegration({ root: __dirname, prefix })] : [],",
      "  beforeSend: (event) => {",
      "    process.stdout.write(`event ${event.event_id}\\n`);",
      "    return event;",
      "  },",
      "});",
      "",
      'checkoutCart([{ sku: "kettle", price: 40, quantity: 1 }, { sku: "teapot", price: 30, quantity: 3 }]);',
      "",
    ].join("\n"),
    ...cartSources(errorName),
  };
}

/** Unrelated code imported first: it takes the short minified names, so the program's names change. */
const NOISE = {
  "noise.ts": [
    "export const alpha = (n: number) => n + 1, beta = (n: number) => alpha(n) * 2, gamma = (n: number) => beta(n) - alpha(n);",
    "export function delta(n: number) { return gamma(n) + beta(n) + alpha(n); }",
    "(globalThis as { noise?: number }).noise = delta(1) + gamma(2) + beta(3) + alpha(4);",
    "",
  ].join("\n"),
};

function suite(engine: "sqlite" | "postgres"): void {
  describe(`source maps end to end with sentry-cli and @sentry/node: ${engine}`, { timeout: 300_000 }, () => {
    let server: TestServer;
    let schema: TestSchema | null = null;
    let work: string;
    let projectSlug: string;
    let cookie: string;

    const cli = (args: string[]) => sentryCli(server, projectSlug, args, work);
    const build = (name: string, sources: Record<string, string>, options: { debugIds?: boolean } = {}) =>
      buildBundle({ sources, entry: "main.ts", outDir: path.join(work, name), platform: "node", debugIds: options.debugIds, esbuild: { external: ["@sentry/node"] } });

    /** Runs the bundle under node with the real SDK (resolved from this repository's node_modules); returns the event id it sent. */
    const runApp = async (app: JsBuild, env: Record<string, string>): Promise<string> => {
      const outcome = await run(process.execPath, [app.file], {
        cwd: work,
        env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", NODE_PATH: path.join(root, "node_modules"), APP_DSN: server.dsn, ...env },
        timeout: 30_000,
        encoding: "utf8",
      }).then(
        () => assert.fail("the program was meant to throw"),
        (error: { stdout?: string; stderr?: string; code?: number }) => error,
      );
      const eventId = /^event ([0-9a-f]{32})$/m.exec(outcome.stdout ?? "")?.[1];
      assert.ok(eventId, `the SDK sent an event:\n${outcome.stdout}\n${outcome.stderr}`);
      // The uncaught error still ends the program (the SDK's handler exits with 1 after sending).
      assert.equal(outcome.code, 1, outcome.stderr);
      return eventId;
    };
    const inApp = (frames: FrameJson[]) => frames.filter((frame) => frame.inApp);

    before(async () => {
      work = mkdtempSync(path.join(tmpdir(), "periscope-sourcemaps-node-"));
      if (engine === "postgres") schema = await freshSchema();
      server = await startServer(schema ? { DATABASE_URL: schema.url } : {});
      projectSlug = await defaultProjectSlug(server);
      cookie = await sessionCookie(server.baseUrl, OWNER_EMAIL, OWNER_PASSWORD);
    });
    after(async () => {
      await server?.stop();
      await schema?.drop();
      rmSync(work, { recursive: true, force: true });
    });

    // First, while the project has no upload at all (the resolver then looks nothing up).
    // A Node service usually runs unbundled: its events carry no "no source maps" note (browser events do).
    it("before any upload, a Node event stays as sent and carries no source-map note", async () => {
      const app = await build("before-upload", programSources("NothingUploadedError"));
      const eventId = await runApp(app, { APP_RELEASE: "shop-node@0.1.0" });
      const event = await storedEvent(server, projectSlug, eventId);
      assert.equal(exceptionOf(event).frames.at(-1)!.filename, app.file, "the frame stays as sent");
      assert.deepEqual(event.errors, []);
      const html = await pageHtml(server, cookie, `/organizations/${server.organizationSlug}/issues/${event.groupID}/events/${eventId}`);
      assert.ok(!html.replace(/<!-- -->/g, "").includes(NO_ARTIFACTS_REASON), "the event page has no note");
    });

    it("inject + upload: the Node error shows original files, lines, functions and source lines, in the event JSON and on the issue page", async () => {
      const sources = programSources("DiscountError");
      const app = await build("node-app", sources);
      await cli(["sourcemaps", "upload", "--release", "shop-node@1.0.0", app.dir]);
      const eventId = await runApp(app, { APP_RELEASE: "shop-node@1.0.0" });

      const event = await storedEvent(server, projectSlug, eventId);
      const exception = exceptionOf(event);
      assert.equal(exception.type, "DiscountError");
      assert.equal(exception.value, "no bulk discount for 3 x teapot");
      const throwLine = lineOf(sources["pricing.ts"]!, "throw new DiscountError");
      const callLine = lineOf(sources["pricing.ts"]!, "return applyBulkDiscount(line)");
      const cartLine = lineOf(sources["cart.ts"]!, "total += priceOfLine(line)");
      const mainLine = lineOf(sources["main.ts"]!, "checkoutCart([");
      assert.deepEqual(
        inApp(exception.frames).map((frame) => [frame.filename, frame.lineNo, frame.function]),
        [
          // Module-level code: no caller in the bundle names it, so it keeps what Node called it.
          ["src/main.ts", mainLine, "Object.?"],
          ["src/cart.ts", cartLine, "checkoutCart"],
          ["src/pricing.ts", callLine, "priceOfLine"],
          ["src/pricing.ts", throwLine, "applyBulkDiscount"],
        ],
      );
      const top = exception.frames.at(-1)!;
      const pricingLines = sources["pricing.ts"]!.split("\n");
      // Five lines either side, from the map's sourcesContent (the file ends three lines below).
      assert.deepEqual(top.context, pricingLines.slice(throwLine - 6, throwLine + 5).map((text, index) => [throwLine - 5 + index, text]));
      // V8 places an error where it was constructed.
      assert.equal(top.colNo, pricingLines[throwLine - 1]!.indexOf("new DiscountError") + 1);
      assert.deepEqual(top.data, { symbolicated: true, resolved_with: "debug-id", sourcemap: "~/app.min.js.map" });
      assert.deepEqual(event.errors, []);
      // The frames as sent stay beside them: the minified file, line 1-ish, minified names.
      assert.ok(exception.rawFrames?.some((frame) => frame.absPath === app.file || frame.filename === app.file), JSON.stringify(exception.rawFrames));

      const page = framesOnPage(await pageHtml(server, cookie, `/organizations/${server.organizationSlug}/issues/${event.groupID}`));
      assert.deepEqual(
        page.filter((frame) => frame.file.startsWith("src/")).map((frame) => [frame.file, frame.function]),
        [
          [`src/pricing.ts:${throwLine}:${top.colNo}`, "applyBulkDiscount"],
          [`src/pricing.ts:${callLine}:${exception.frames.at(-2)!.colNo}`, "priceOfLine"],
          [`src/cart.ts:${cartLine}:${exception.frames.at(-3)!.colNo}`, "checkoutCart"],
          [`src/main.ts:${mainLine}:1`, "Object.?"],
        ],
      );
      // (An empty line is rendered as one space.)
      assert.deepEqual(page[0]!.source, top.context.map(([line, text]) => `${line} ${text || " "}`));
      assert.ok(page[0]!.source.includes(`${throwLine}   if (rate === 0) throw new DiscountError(\`no bulk discount for \${line.quantity} x \${line.sku}\`);`), page[0]!.source.join("\n"));
      assert.ok(page.every((frame) => !frame.file.includes("app.min.js")), "no frame is shown minified");
    });

    it("two builds of the same code, with different minified names and debug ids, are one issue", async () => {
      const sources = programSources("BulkPricingError");
      const first = await build("build-a", sources);
      const second = await build("build-b", { ...sources, ...NOISE, "main.ts": `import "./noise";\n${sources["main.ts"]}` });
      assert.notEqual(first.debugId, second.debugId);
      await cli(["sourcemaps", "upload", "--release", "shop-node@2.0.0", first.dir]);
      await cli(["sourcemaps", "upload", "--release", "shop-node@2.0.1", second.dir]);
      const a = await storedEvent(server, projectSlug, await runApp(first, { APP_RELEASE: "shop-node@2.0.0" }));
      const b = await storedEvent(server, projectSlug, await runApp(second, { APP_RELEASE: "shop-node@2.0.1" }));

      const rawNames = (event: typeof a) => exceptionOf(event).rawFrames!.filter((frame) => frame.inApp).map((frame) => frame.function);
      assert.notDeepEqual(rawNames(a), rawNames(b), "the builds' minified names differ");
      const names = (event: typeof a) => inApp(exceptionOf(event).frames).map((frame) => [frame.filename, frame.function]);
      assert.deepEqual(names(a), names(b));
      assert.equal(a.groupID, b.groupID);
      const issues = (await (await server.api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/issues/?query=`)).json()) as { id: string; title: string; count: string }[];
      const matching = issues.filter((issue) => issue.title.startsWith("BulkPricingError"));
      assert.deepEqual(matching.map((issue) => [issue.id, issue.count]), [[a.groupID, "2"]]);
    });

    it("release files without debug ids (the older upload): matched by release + dist + URL", async () => {
      const sources = programSources("LegacyPricingError");
      const app = await build("legacy", sources, { debugIds: false });
      await cli(["releases", "new", "shop-node@3.0.0"]);
      const upload = async (file: string, name: string, bytes: string) => {
        const form = new FormData();
        form.append("file", new Blob([bytes]), file);
        form.append("name", name);
        form.append("dist", "build-7");
        const answer = await server.api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/shop-node@3.0.0/files/`, { method: "POST", body: form });
        assert.equal(answer.status, 201, await answer.text());
      };
      await upload("app.min.js", "~/static/app.min.js", app.code);
      await upload("app.min.js.map", "~/static/app.min.js.map", app.map);
      // The Node SDK's documented way to URLs that do not depend on the machine: RewriteFrames.
      const eventId = await runApp(app, { APP_RELEASE: "shop-node@3.0.0", APP_DIST: "build-7", APP_URL_PREFIX: "app:///static/" });

      const event = await storedEvent(server, projectSlug, eventId);
      const exception = exceptionOf(event);
      const top = exception.frames.at(-1)!;
      const throwLine = lineOf(sources["pricing.ts"]!, "throw new LegacyPricingError");
      assert.deepEqual([top.filename, top.lineNo, top.function], ["src/pricing.ts", throwLine, "applyBulkDiscount"]);
      assert.deepEqual(top.data, { symbolicated: true, resolved_with: "release-old", sourcemap: "~/static/app.min.js.map" });
      assert.ok(exception.rawFrames?.some((frame) => frame.filename === "app:///static/app.min.js"), JSON.stringify(exception.rawFrames));

      // The same event of another dist finds nothing, and says what it tried.
      const otherDist = await storedEvent(server, projectSlug, await runApp(app, { APP_RELEASE: "shop-node@3.0.0", APP_DIST: "build-8", APP_URL_PREFIX: "app:///static/" }));
      const unresolved = exceptionOf(otherDist).frames.at(-1)!;
      assert.equal(unresolved.filename, "app:///static/app.min.js");
      assert.equal(
        unresolved.data?.unresolved?.reason,
        "release shop-node@3.0.0 (dist build-8) has no artifact for this URL (tried app:///static/app.min.js, ~/static/app.min.js)",
      );
    });

    it("sentry-cli upload without debug ids: the bundle is matched by its release + dist + URL", async () => {
      const sources = programSources("ReleaseBundleError");
      const app = await build("release-bundle", sources, { debugIds: false });
      await cli(["sourcemaps", "upload", "--release", "shop-node@3.1.0", "--dist", "build-9", "--url-prefix", "app:///static", app.dir]);
      const eventId = await runApp(app, { APP_RELEASE: "shop-node@3.1.0", APP_DIST: "build-9", APP_URL_PREFIX: "app:///static/" });
      const top = exceptionOf(await storedEvent(server, projectSlug, eventId)).frames.at(-1)!;
      const throwLine = lineOf(sources["pricing.ts"]!, "throw new ReleaseBundleError");
      assert.deepEqual([top.filename, top.lineNo, top.function], ["src/pricing.ts", throwLine, "applyBulkDiscount"]);
      assert.deepEqual(top.data, { symbolicated: true, resolved_with: "release", sourcemap: "app:///static/app.min.js.map" });
    });

    it("a frame whose debug id is unknown stays minified and says so, in the event JSON and on the event page", async () => {
      const app = await build("not-uploaded", programSources("UnmappedError"));
      const eventId = await runApp(app, { APP_RELEASE: "shop-node@4.0.0" });
      const event = await storedEvent(server, projectSlug, eventId);
      const top = exceptionOf(event).frames.at(-1)!;
      const reason = `no bundle with debug id ${app.debugId}`;
      assert.equal(top.filename, app.file);
      assert.equal(top.lineNo, positionOf(app.code, "no bulk discount").lineno, "the minified position stays");
      assert.deepEqual(top.data, { symbolicated: false, unresolved: { type: "js_no_source", reason, data: { url: app.file, debug_id: app.debugId } } });
      assert.deepEqual(event.errors, [{ type: "js_no_source", message: reason, data: { url: app.file, debug_id: app.debugId } }]);

      const page = framesOnPage(await pageHtml(server, cookie, `/organizations/${server.organizationSlug}/issues/${event.groupID}/events/${eventId}`));
      assert.equal(page[0]?.file, `${app.file}:${top.lineNo}:${top.colNo}`);
      assert.equal(page[0]?.unresolved, `Source map not applied: ${reason}`);
    });
  });
}

suite("sqlite");
if (await postgresForTests("source maps end to end: postgres")) suite("postgres");
