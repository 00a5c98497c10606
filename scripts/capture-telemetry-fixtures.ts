/**
 * Captures real telemetry envelopes — transactions, streamed spans, request-mode session aggregates —
 * from the real SDKs into tests/fixtures/envelopes/telemetry/, with the recorder of
 * scripts/capture-fixtures.ts (which captures errors, single sessions and client reports):
 *
 *   npx tsx scripts/capture-telemetry-fixtures.ts
 *
 *   1. `node`: @sentry/node in a child process — one transaction with nested child spans
 *      (Sentry.startSpan), then the same work with `traceLifecycle: "stream"` (v2 span containers),
 *      then an instrumented node:http server answering two requests, one of which captures an
 *      error (a `sessions` item with aggregates);
 *   2. `browser`: @sentry/browser with `browserTracingIntegration` in Chromium — the page load, a
 *      fetch, a click (INP), a layout shift (CLS), a history navigation, then the page is hidden so
 *      the web vitals are reported. Twice: with the default `traceLifecycle` (11.x streams spans as
 *      v2 containers) and with `traceLifecycle: "static"` (transactions, as older SDKs send).
 * Only envelopes carrying `transaction`, `span` or `sessions` items are kept. Files are named
 * `<client>-<first item>[-<op>][-n]`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromiumArgs, chromiumPath } from "../tests/helpers/chromium";
import { buildBrowserBundle, scrubCheckoutPath, settle, startRecorder, type Recorded } from "./capture-fixtures";

const PUBLIC_KEY = "0123456789abcdef0123456789abcdef";
const RELEASE = "periscope-fixtures@1.0.0";
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "tests", "fixtures", "envelopes", "telemetry");

type NodePhase = "static" | "stream" | "sessions";

/** Request-mode sessions: the SDK aggregates one session per request, flushed after the delay. */
async function runNodeServer(port: number): Promise<void> {
  const Sentry = await import("@sentry/node");
  const http = await import("node:http");
  Sentry.init({
    dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`,
    release: RELEASE,
    environment: "fixtures",
    integrations: [Sentry.httpIntegration({ sessionFlushingDelayMS: 300 })],
  });
  const server = http.createServer((req, res) => {
    if (req.url === "/fail") Sentry.captureException(new Error("request failed"));
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: appPort } = server.address() as AddressInfo;
  for (const route of ["/ok", "/fail"]) await (await fetch(`http://127.0.0.1:${appPort}${route}`)).text();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await Sentry.flush(5000);
  server.close();
}

async function runNodeClient(port: number, lifecycle: "static" | "stream"): Promise<void> {
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`,
    release: RELEASE,
    environment: "fixtures",
    tracesSampleRate: 1,
    traceLifecycle: lifecycle,
  });
  await Sentry.startSpan({ name: "checkout", op: "task", attributes: { "cart.items": 3 } }, async () => {
    await Sentry.startSpan({ name: "load cart", op: "db.query" }, () => new Promise((resolve) => setTimeout(resolve, 20)));
    await Sentry.startSpan({ name: "charge card", op: "http.client" }, async (span) => {
      await Sentry.startSpan({ name: "sign request", op: "function" }, () => new Promise((resolve) => setTimeout(resolve, 5)));
      span.setStatus({ code: 2, message: "internal_error" });
    });
  });
  await Sentry.flush(5000);
}

function browserPage(port: number, lifecycle: "static" | "stream"): string {
  const options = {
    dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`, release: RELEASE, environment: "fixtures", tracesSampleRate: 1, traceLifecycle: lifecycle,
  };
  return `<!doctype html><html><head><script src="/bundle.js"></script><script>
Sentry.init({ ...${JSON.stringify(options)}, integrations: [Sentry.browserTracingIntegration()] });
</script></head><body>
<h1 id="headline">Periscope tracing fixture page with a large headline for LCP</h1>
<button id="work" onclick="const end = performance.now() + 120; while (performance.now() < end) {} this.textContent = 'done';">work</button>
<div id="feed"></div>
<script>
fetch("/data.json").then((response) => response.text());
setTimeout(() => {
  const banner = document.createElement("div");
  banner.style.height = "200px";
  banner.textContent = "late banner";
  document.body.insertBefore(banner, document.body.firstChild);
}, 300);
</script></body></html>`;
}

/** `<item type>[-<op>]` of the first item: the transaction's op, or a container's segment (else first) span op. */
function classify(body: Buffer): string {
  const lines = body.toString("utf8").split("\n");
  const header = JSON.parse(lines[1] ?? "{}") as { type?: string; content_type?: string };
  const payload = JSON.parse(lines[2] ?? "{}") as {
    contexts?: { trace?: { op?: string } };
    op?: string;
    items?: { is_segment?: boolean; attributes?: Record<string, { value?: unknown }> }[];
  };
  if (header.type === "transaction") return `transaction-${payload.contexts?.trace?.op ?? "none"}`;
  if (header.type === "sessions") return "sessions";
  if (header.type === "span" && header.content_type?.includes("span.v2")) {
    const named = payload.items?.find((span) => span.is_segment) ?? payload.items?.[0];
    const op = named?.attributes?.["sentry.op"]?.value;
    return `span-v2-${typeof op === "string" ? op : "none"}`;
  }
  return `${header.type ?? "unknown"}${payload.op ? `-${payload.op}` : ""}`;
}

function save(prefix: string, sdk: string, recorded: Recorded[], used: Set<string>): void {
  for (const request of recorded) {
    const types = request.body.toString("utf8").split("\n").flatMap((line) => {
      const type = /^\{"type":"([a-z_]+)"/.exec(line)?.[1];
      return type ? [type] : [];
    });
    if (!types.some((type) => type === "transaction" || type === "span" || type === "sessions")) continue;
    let name = `${prefix}-${classify(request.body).replace(/[^a-z0-9.-]+/gi, "-")}`;
    for (let n = 2; used.has(name); n++) name = `${name.replace(/-\d+$/, "")}-${n}`;
    used.add(name);
    writeFileSync(path.join(outDir, `${name}.envelope`), scrubCheckoutPath(request.body));
    const meta = { url: request.url, headers: request.headers, sdk, note: `items: ${types.join(", ")}` };
    writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`${name}: ${request.body.length} bytes, items: ${types.join(", ")}`);
  }
}

async function runNode(port: number, phase: NodePhase): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--node-client", String(port), phase], { stdio: "inherit" });
  await new Promise((resolve) => child.on("exit", resolve));
}

async function main(): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("Chromium is needed (apt-get install -y chromium)");
  const pages = new Map<string, string>();
  let bundle = "";
  const { server, requests } = startRecorder(pages, () => bundle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  pages.set("/stream", browserPage(port, "stream"));
  pages.set("/static", browserPage(port, "static"));
  pages.set("/data.json", '{"ok":true}');
  bundle = await buildBrowserBundle();
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(outDir)) rmSync(path.join(outDir, file));
  const used = new Set<string>();
  const sdkVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/@sentry/node/package.json"), "utf8")) as { version: string }).version;

  await runNode(port, "static");
  await settle(requests, 1000);
  save("node", `@sentry/node ${sdkVersion}`, requests.splice(0), used);
  await runNode(port, "stream");
  await settle(requests, 1000);
  save("node-stream", `@sentry/node ${sdkVersion} with traceLifecycle "stream"`, requests.splice(0), used);
  await runNode(port, "sessions");
  await settle(requests, 1000);
  save("node-http", `@sentry/node ${sdkVersion} httpIntegration (request-mode sessions)`, requests.splice(0), used);

  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs });
  for (const lifecycle of ["stream", "static"] as const) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/${lifecycle}`);
    await page.waitForTimeout(800);
    await page.click("#work");
    await page.waitForTimeout(300);
    await page.evaluate(() => history.pushState({}, "", "/next"));
    await page.waitForTimeout(500);
    await settle(requests, 2500);
    // Hiding the page makes the SDK report the web vitals (and end the navigation span).
    await page.close({ runBeforeUnload: true });
    await settle(requests, 1500);
    const sdk = `@sentry/browser ${sdkVersion} with browserTracingIntegration, traceLifecycle "${lifecycle}", in Chromium ${browser.version()}`;
    save(lifecycle === "stream" ? "browser" : "browser-static", sdk, requests.splice(0), used);
  }
  await browser.close();
  server.close();
}

const nodeClientArg = process.argv.indexOf("--node-client");
if (nodeClientArg >= 0) {
  const port = Number(process.argv[nodeClientArg + 1]);
  const phase = process.argv[nodeClientArg + 2];
  if (phase === "sessions") await runNodeServer(port);
  else await runNodeClient(port, phase === "stream" ? "stream" : "static");
} else {
  await main();
}
