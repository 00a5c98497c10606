/**
 * Captures real envelopes from the real Sentry SDKs into tests/fixtures/envelopes/, so parser and
 * ingest tests run over what SDKs actually send instead of what we think they send.
 *
 *   npx tsx scripts/capture-fixtures.ts
 *
 * A local node:http server on 127.0.0.1 records every POST (raw bytes + headers). Three phases run
 * one after the other, so each recorded request is attributed to the client that sent it:
 *   1. `node`: a child process runs @sentry/node (this file with `--node-client <port>`);
 *   2. `browser`: Chromium (playwright-core) loads an esbuild bundle of @sentry/browser;
 *   3. `browser-tunnel`: the same page with the `tunnel` option, so the envelope header carries `dsn`.
 * For every request we write `<name>.envelope` (decompressed body bytes), `<name>.json` (headers
 * and a note) and, when the SDK gzipped the body, `<name>.envelope.gz` (the same bytes gzipped again,
 * after the checkout path in stack frames is replaced with `/opt/store`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

const PUBLIC_KEY = "0123456789abcdef0123456789abcdef";
const RELEASE = "periscope-fixtures@1.0.0";
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "tests", "fixtures", "envelopes");
const keptHeaders = ["content-type", "content-encoding", "content-length", "transfer-encoding", "user-agent", "origin", "x-sentry-auth"];

export interface Recorded { url: string; headers: Record<string, string>; wire: Buffer; body: Buffer }

/**
 * Stack frames name files by absolute path: the checkout's location is replaced with a neutral one
 * so fixtures carry no machine-specific path. Only JSON items contain it; they carry no `length`.
 */
export function scrubCheckoutPath(body: Buffer): Buffer {
  return Buffer.from(body.toString("latin1").split(root).join("/opt/store"), "latin1");
}

async function runNodeClient(port: number): Promise<void> {
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`,
    release: RELEASE,
    environment: "fixtures",
    // Dropping one event makes the SDK record an outcome, which it then sends as a client report.
    beforeSend: (event) => (event.message === "dropped by beforeSend" ? null : event),
  });
  Sentry.captureException(new Error("outer", { cause: new Error("inner") }));
  await Sentry.flush(5000);
  Sentry.captureMessage("hello from captureMessage");
  await Sentry.flush(5000);
  Sentry.withScope((scope) => {
    scope.setFingerprint(["custom-fingerprint", "{{ default }}"]);
    Sentry.captureException(new Error("fingerprinted"));
  });
  await Sentry.flush(5000);
  // Over the SDK's 32 KiB GZIP_THRESHOLD, so the transport gzips the body.
  Sentry.captureMessage("big event", { extra: { blob: "0123456789abcdef".repeat(4096) } });
  await Sentry.flush(5000);
  Sentry.withScope((scope) => {
    scope.addAttachment({ filename: "notes.txt", data: "line one\nline two\n", contentType: "text/plain" });
    Sentry.captureMessage("with attachment");
  });
  await Sentry.flush(5000);
  Sentry.captureMessage("dropped by beforeSend");
  await Sentry.flush(5000);
  // Exiting lets processSessionIntegration end the session on `beforeExit`.
}

export function startRecorder(pages: Map<string, string>, bundle: () => string) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*" };
    const page = pages.get(req.url ?? "");
    if (req.method === "GET" && page !== undefined) return res.writeHead(200, { "content-type": "text/html" }).end(page);
    if (req.method === "GET" && req.url === "/bundle.js") {
      return res.writeHead(200, { "content-type": "text/javascript" }).end(bundle());
    }
    if (req.method !== "POST") return res.writeHead(req.method === "OPTIONS" ? 204 : 404, cors).end();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const wire = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const name of keptHeaders) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const body = headers["content-encoding"] === "gzip" ? gunzipSync(wire) : wire;
      requests.push({ url: req.url ?? "", headers, wire, body });
      res.writeHead(200, { ...cors, "content-type": "application/json" }).end("{}");
    });
  });
  return { server, requests };
}

/** Resolves once no request has arrived for `quietMs` (SDKs send asynchronously, sessions late). */
export async function settle(requests: Recorded[], quietMs: number): Promise<void> {
  let seen = -1;
  while (seen !== requests.length) {
    seen = requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

export async function buildBrowserBundle(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents: 'export * from "@sentry/browser";', resolveDir: root },
    bundle: true,
    format: "iife",
    globalName: "Sentry",
    platform: "browser",
    write: false,
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no output");
  return file.text;
}

function browserPage(port: number, tunnel: boolean): string {
  const options = {
    dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`,
    release: RELEASE,
    environment: "fixtures",
    ...(tunnel ? { tunnel: "/tunnel" } : {}),
  };
  return `<!doctype html><html><head><script src="/bundle.js"></script><script>
Sentry.init({ ...${JSON.stringify(options)},
  beforeSend: (event) => (event.message === "dropped by beforeSend" ? null : event) });
Sentry.captureMessage("dropped by beforeSend");
setTimeout(() => { throw new Error("uncaught browser error"); }, 50);
</script></head><body>fixture page</body></html>`;
}

/** What a captured event is about: its message, else the value of its last (thrown) exception. */
function eventTitle(payload: string): string {
  const event = JSON.parse(payload) as { message?: unknown; exception?: { values?: { value?: unknown }[] } };
  if (typeof event.message === "string") return event.message;
  return String(event.exception?.values?.at(-1)?.value ?? "");
}

const eventKinds: Record<string, [kind: string, note: string]> = {
  outer: ["error-cause", "captureException(new Error('outer', { cause: new Error('inner') }))"],
  "hello from captureMessage": ["message", "captureMessage('hello from captureMessage')"],
  fingerprinted: ["fingerprint", "captureException with scope.setFingerprint(['custom-fingerprint', '{{ default }}'])"],
  "big event": ["big-event", "captureMessage with a 64 KiB extra, over the SDK's 32 KiB gzip threshold"],
  "with attachment": ["attachment", "captureMessage with scope.addAttachment(notes.txt, text with newlines)"],
  "uncaught browser error": ["uncaught-error", "uncaught `throw new Error('uncaught browser error')` in a setTimeout"],
};

/**
 * Names a request after its first item, and events after what the client captured. (Events are
 * told apart by their own payload: breadcrumbs repeat the messages of earlier events.) The JS SDK
 * writes JSON items without `length` or newlines inside, so splitting on "\n" is enough here.
 */
function classify(body: Buffer): { kind: string; note: string } {
  const lines = body.toString("utf8").split("\n");
  const type = (JSON.parse(lines[1] ?? "{}") as { type?: unknown }).type;
  if (type === "event") {
    const title = eventTitle(lines[2] ?? "{}");
    const [kind, note] = eventKinds[title] ?? ["event", `event '${title}'`];
    return { kind, note };
  }
  if (type === "session") {
    const session = JSON.parse(lines[2] ?? "{}") as { status?: unknown; init?: unknown; errors?: unknown };
    const note = `session update: status=${String(session.status)} init=${String(session.init)} errors=${String(session.errors)}`;
    return { kind: `session-${String(session.status)}`, note };
  }
  if (type === "client_report") return { kind: "client-report", note: `client report after beforeSend dropped an event: ${lines[2] ?? ""}` };
  return { kind: String(type), note: `envelope whose first item is '${String(type)}'` };
}

function save(prefix: string, sdk: string, recorded: Recorded[], used: Set<string>): void {
  for (const request of recorded) {
    const { kind, note } = classify(request.body);
    let name = `${prefix}-${kind}`;
    for (let n = 2; used.has(name); n++) name = `${prefix}-${kind}-${n}`;
    used.add(name);
    const body = scrubCheckoutPath(request.body);
    writeFileSync(path.join(outDir, `${name}.envelope`), body);
    if (request.headers["content-encoding"] === "gzip") writeFileSync(path.join(outDir, `${name}.envelope.gz`), gzipSync(body));
    const meta = { url: request.url, headers: request.headers, sdk, note };
    writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`${name}: ${body.length} bytes, ${note.slice(0, 80)}`);
  }
}

async function main(): Promise<void> {
  const pages = new Map<string, string>();
  let bundle = "";
  const { server, requests } = startRecorder(pages, () => bundle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  pages.set("/direct", browserPage(port, false));
  pages.set("/tunnel-page", browserPage(port, true));
  bundle = await buildBrowserBundle();
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(outDir)) rmSync(path.join(outDir, file));
  const used = new Set<string>();
  const sdkVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/@sentry/node/package.json"), "utf8")) as { version: string }).version;

  const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--node-client", String(port)], { stdio: "inherit" });
  await new Promise((resolve) => child.on("exit", resolve));
  await settle(requests, 1000);
  save("node", `@sentry/node ${sdkVersion}`, requests.splice(0), used);

  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  for (const [prefix, url] of [["browser", "/direct"], ["browser-tunnel", "/tunnel-page"]] as const) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}${url}`);
    await settle(requests, 1500);
    // Closing hides the page; the SDK then flushes its client reports with a keepalive fetch.
    await page.close({ runBeforeUnload: true });
    await settle(requests, 1500);
    save(prefix, `@sentry/browser ${sdkVersion} in Chromium ${browser.version()}`, requests.splice(0), used);
  }
  await browser.close();
  server.close();
}

// scripts/capture-telemetry-fixtures.ts imports the recorder from here: run only when executed.
if (path.resolve(process.argv[1] ?? "") === import.meta.filename) {
  const nodeClientArg = process.argv.indexOf("--node-client");
  if (nodeClientArg >= 0) await runNodeClient(Number(process.argv[nodeClientArg + 1]));
  else await main();
}
