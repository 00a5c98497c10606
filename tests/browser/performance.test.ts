/**
 * Performance in Chromium (issue 36): a page with the real `@sentry/browser` and browser tracing calls
 * a Node service instrumented with the real `@sentry/node` on 127.0.0.1; both report to one Periscope,
 * to projects of their own. One trace id joins both: the trace view shows the page load, its fetch,
 * the service's request and its database span in the right tree, the service's error pinned to its
 * span and listed under the trace; the event page links to the trace. Then the transactions list,
 * a summary and the web vitals show the figures computed here from samples sent (legacy transaction
 * events and v2 span containers of one transaction).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { buildBundle } from "../helpers/js-builds";
import { eventually } from "../helpers/monitoring";
import { failureRate, legacyTransactionEnvelope, percentile, SAMPLE_DURATIONS, streamedSegmentEnvelope, type SampleSpec } from "../helpers/perf-envelopes";
import { startServer, type TestServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");

interface TraceNode {
  event_id: string;
  event_type: "span" | "error";
  op?: string;
  project_slug?: string;
  errors?: { event_id: string; issue_id: number; title: string; span: string }[];
  children: TraceNode[];
}

/** The shop page: browser tracing, one fetch to the service, then the page load ends and is flushed. */
function shopSource(dsn: string, serviceUrl: string): string {
  return [
    'import * as Sentry from "@sentry/browser";',
    `Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop@3.1.0", environment: "test", tracesSampleRate: 1,`,
    `  tracePropagationTargets: [${JSON.stringify(serviceUrl)}], integrations: [Sentry.browserTracingIntegration({ idleTimeout: 300 })] });`,
    "const state = window as unknown as { traceId?: string; done?: boolean };",
    "void (async () => {",
    `  const response = await fetch(${JSON.stringify(`${serviceUrl}/api/orders`)});`,
    "  state.traceId = ((await response.json()) as { traceId: string }).traceId;",
    "  await new Promise((resolve) => setTimeout(resolve, 1500));",
    "  await Sentry.flush(5000);",
    "  state.done = true;",
    "})();",
  ].join("\n");
}

const flatten = (nodes: TraceNode[], parent: TraceNode | null = null): { node: TraceNode; parent: TraceNode | null }[] =>
  nodes.flatMap((node) => [{ node, parent }, ...flatten(node.children, node)]);

describe("performance views with @sentry/browser and @sentry/node in Chromium", { timeout: 300_000 }, () => {
  let periscope: TestServer;
  let service: ChildProcess;
  let shop: { server: Server; url: string };
  let work: string;
  let browser: Browser;
  let page: Page;
  let traceId: string;
  let web: { id: string; slug: string; dsn: string };
  let api: { id: string; slug: string; dsn: string };

  const createProject = async (name: string, platform: string) => {
    const response = await periscope.api(`/api/0/teams/default/default/projects/`, { method: "POST", body: JSON.stringify({ name, platform }) });
    const project = (await response.json()) as { id: string; slug: string };
    const [key] = (await (await periscope.api(`/api/0/projects/default/${project.slug}/keys/`)).json()) as { dsn: { public: string } }[];
    return { ...project, dsn: key!.dsn.public };
  };

  before(async () => {
    assert.ok(chromiumPath(), "Chromium is installed");
    work = mkdtempSync(path.join(tmpdir(), "periscope-performance-browser-"));
    periscope = await startServer(ADMIN_ENV);
    web = await createProject("Web shop", "javascript-browser");
    api = await createProject("Orders API", "node");
    service = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/helpers/node-traced-service.ts"), api.dsn], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let serviceOutput = "";
    const port = await new Promise<number>((resolve, reject) => {
      service.stderr?.on("data", (chunk: Buffer) => (serviceOutput += chunk.toString()));
      service.stdout?.on("data", (chunk: Buffer) => {
        serviceOutput += chunk.toString();
        const match = /listening (\d+)/.exec(serviceOutput);
        if (match) resolve(Number(match[1]));
      });
      service.once("exit", (code) => reject(new Error(`the service exited (${code}): ${serviceOutput}`)));
    });
    const serviceUrl = `http://127.0.0.1:${port}`;
    const app = await buildBundle({
      sources: { "main.ts": shopSource(web.dsn, serviceUrl) }, entry: "main.ts", outDir: work, platform: "browser", debugIds: false,
      esbuild: { target: "es2020", nodePaths: [path.join(root, "node_modules")] },
    });
    const html = '<!doctype html><html><head><title>Shop</title><script src="/app.js" defer></script></head><body><h1>Shop</h1></body></html>';
    const server = createServer((request, response) => {
      if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(html);
      else if (request.url === "/app.js") response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(app.file));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    shop = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
    page = await browser.newPage();
    await page.goto(shop.url);
    await page.waitForFunction(() => (window as { done?: boolean }).done === true, undefined, { timeout: 30_000 });
    traceId = (await page.evaluate(() => (window as { traceId?: string }).traceId)) ?? "";
    assert.match(traceId, /^[0-9a-f]{32}$/);
    // The service's SDK sends on close.
    const exited = new Promise((resolve) => service.once("exit", resolve));
    service.kill("SIGTERM");
    await exited;
  });
  after(async () => {
    await browser?.close();
    if (service && service.exitCode === null) service.kill("SIGKILL");
    await new Promise((resolve) => (shop ? shop.server.close(resolve) : resolve(undefined)));
    await periscope?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test("the trace API joins the page load and the service's request, with the service's error on its span", async () => {
    const trace = await eventually("both projects' spans and the error", async () => {
      const response = await periscope.api(`/api/0/organizations/default/trace/${traceId}/`);
      if (response.status !== 200) return undefined;
      const nodes = flatten((await response.json()) as TraceNode[]);
      const done = nodes.some(({ node }) => node.op === "pageload") && nodes.some(({ node }) => node.op === "db.query" && node.errors?.length === 1);
      return done ? nodes : undefined;
    }, 60_000);
    const find = (op: string) => trace.find(({ node }) => node.op === op);
    const pageload = find("pageload")!;
    const fetchSpan = trace.find(({ node }) => node.op === "http.client" && node.project_slug === web.slug);
    const request = find("http.server")!;
    const db = find("db.query")!;
    assert.equal(pageload.parent, null);
    assert.equal(pageload.node.project_slug, web.slug);
    assert.ok(fetchSpan, "the fetch span");
    // The service's request continues the browser's fetch: a child of it, in the other project.
    assert.equal(request.parent?.event_id, fetchSpan.node.event_id);
    assert.equal(request.node.project_slug, api.slug);
    assert.equal(db.parent?.event_id, request.node.event_id);
    assert.equal(db.node.errors?.[0]?.title, "Error: orders table is locked");
    assert.equal(db.node.errors?.[0]?.span, db.node.event_id);
    // Under the page load, through its fetch.
    let at: { node: TraceNode; parent: TraceNode | null } | undefined = fetchSpan;
    while (at?.parent) at = trace.find(({ node }) => node === at!.parent);
    assert.equal(at?.node, pageload.node);
  });

  test("the trace view in Chromium shows the tree across projects, the error on its span and under the trace", async () => {
    await loginInBrowser(page, periscope.baseUrl);
    await page.goto(`${periscope.baseUrl}/organizations/default/traces/${traceId}`);
    const rows = page.getByTestId("trace-span");
    await rows.first().waitFor();
    const all = await rows.evaluateAll((items) =>
      items.map((item) => ({
        span: item.getAttribute("data-span-id"), parent: item.getAttribute("data-parent-span-id"), depth: Number(item.getAttribute("data-depth")),
        project: item.getAttribute("data-project"), errors: Number(item.getAttribute("data-errors")), label: item.textContent ?? "",
      })),
    );
    const row = (op: string, project: string) => all.find((r) => r.label.includes(op) && r.project === project);
    const pageload = row("pageload", web.slug)!;
    const request = row("http.server", api.slug)!;
    const db = row("db.query", api.slug)!;
    const fetchRow = all.find((r) => r.span === request.parent)!;
    assert.equal(pageload.depth, 0);
    assert.equal(fetchRow.project, web.slug);
    assert.ok(fetchRow.label.includes("http.client"));
    assert.equal(request.depth, fetchRow.depth + 1);
    assert.equal(db.parent, request.span);
    assert.equal(db.depth, request.depth + 1);
    assert.equal(db.errors, 1);
    assert.deepEqual(all.filter((r) => r.errors > 0).map((r) => r.span), [db.span]);

    // The error is listed under the trace, naming its span; its span's panel shows it.
    const listed = page.getByTestId("trace-error");
    assert.equal(await listed.count(), 1);
    assert.equal(await listed.getAttribute("data-span-id"), db.span);
    assert.match(await listed.innerText(), /orders table is locked/);
    await page.locator(`[data-testid="trace-span"][data-span-id="${db.span}"] [data-testid="trace-span-label"]`).click();
    assert.match(await page.getByTestId("span-details").innerText(), /orders table is locked[\s\S]*db\.query|db\.query[\s\S]*orders table is locked/);

    // Collapsing the service's request hides its children, expanding shows them again.
    const toggle = page.locator(`[data-testid="trace-span"][data-span-id="${request.span}"] [data-testid="trace-toggle"]`);
    await toggle.click();
    await page.locator(`[data-testid="trace-span"][data-span-id="${db.span}"]`).waitFor({ state: "detached" });
    await toggle.click();
    await page.locator(`[data-testid="trace-span"][data-span-id="${db.span}"]`).waitFor();

    // From the error's event page, its trace id opens the trace.
    await listed.getByRole("link").click();
    await page.waitForURL(/\/issues\/\d+\/events\/[0-9a-f]{32}$/);
    await page.getByTestId("event-trace-link").click();
    await page.waitForURL(`${periscope.baseUrl}/organizations/default/traces/${traceId}`);
    await page.getByTestId("trace-waterfall").waitFor();
  });

  test("the transactions list, a summary and the web vitals show the figures of the samples sent", async () => {
    const shopProject = await createProject("Checkout", "javascript-browser");
    const base = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    const statuses: SampleSpec["status"][] = ["ok", "internal_error", "ok", "ok", "ok", "error", "ok", "ok", "cancelled", "ok"];
    const specs = SAMPLE_DURATIONS.map((duration, i): SampleSpec => ({ name: "/cart", duration, status: statuses[i]!, end: base + i * 1000, lcp: 800 * (i + 1) }));
    for (const [i, spec] of specs.entries()) {
      const { body } = i % 2 === 0 ? legacyTransactionEnvelope(shopProject.dsn, spec) : streamedSegmentEnvelope(shopProject.dsn, spec);
      const response = await fetch(`${periscope.baseUrl}/api/${shopProject.id}/envelope/`, { method: "POST", body });
      assert.equal(response.status, 200);
    }
    const durations = specs.map((spec) => spec.duration);
    const expected = {
      p50: percentile(durations, 0.5), p75: percentile(durations, 0.75), p95: percentile(durations, 0.95), p99: percentile(durations, 0.99),
      "failure-rate": failureRate(specs),
    };
    const row = page.locator('[data-testid="transaction-row"][data-name="/cart"]');
    await eventually("every sample listed", async () => {
      await page.goto(`${periscope.baseUrl}/organizations/default/performance?project=${shopProject.id}`);
      return (await row.getByTestId("cell-count").getAttribute("data-value")) === String(specs.length) ? true : undefined;
    });
    for (const [cell, value] of Object.entries(expected)) {
      const shown = Number(await row.getByTestId(`cell-${cell}`).getAttribute("data-value"));
      assert.ok(Math.abs(shown - value) < 1e-6, `${cell}: ${shown} vs ${value}`);
    }
    // Sorting by p95 ascending, and a filter on a column.
    await page.getByTestId("sort-p95").click();
    await page.waitForURL(/sort=-p95/);
    await page.goto(`${periscope.baseUrl}/organizations/default/performance?project=${shopProject.id}&query=${encodeURIComponent("p95:>100000")}`);
    assert.equal(await page.getByTestId("transaction-row").count(), 0);

    // The summary: the same figures, a histogram of every sample, the slowest first.
    await page.goto(`${periscope.baseUrl}/organizations/default/performance?project=${shopProject.id}`);
    await row.getByRole("link").click();
    await page.getByTestId("summary-stats").waitFor();
    assert.ok(Math.abs(Number(await page.getByTestId("stat-p95").getAttribute("data-value")) - expected.p95) < 1e-6);
    const buckets = await page.getByTestId("histogram-bucket").evaluateAll((items) => items.map((item) => Number(item.getAttribute("data-count"))));
    assert.equal(buckets.reduce((a, b) => a + b, 0), specs.length);
    assert.match(await page.getByTestId("slow-sample").first().innerText(), /2\.00 s/);
    assert.ok((await page.getByTestId("span-op").count()) >= 1);

    // Web vitals: LCP p75 of the page, rated with web.dev's thresholds.
    await page.goto(`${periscope.baseUrl}/organizations/default/performance/vitals?project=${shopProject.id}`);
    const lcp = page.locator('[data-testid="vital-page"][data-page="/cart"] [data-testid="vital-lcp"]');
    const lcpP75 = percentile(specs.map((spec) => spec.lcp!), 0.75);
    assert.ok(Math.abs(Number(await lcp.getAttribute("data-value")) - lcpP75) < 1e-6);
    assert.equal(await lcp.getAttribute("data-rating"), lcpP75 > 4000 ? "poor" : lcpP75 > 2500 ? "needs-improvement" : "good");
  });
});
