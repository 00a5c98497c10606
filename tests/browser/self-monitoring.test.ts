/**
 * Periscope monitors itself: in real Chromium, its own UI sends sessions, page-load spans, errors
 * and client reports by POST to `/monitoring?o=<org>&p=<project>` on its own origin (and to no other
 * origin), they land in the internal "periscope" project, and uncaught exceptions show the classic
 * fallback text. Test-hook pages (ENABLE_TEST_HOOKS) raise the exceptions on purpose.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page, type Request } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { eventually, type InternalProject } from "../helpers/monitoring";
import { startServer, type TestServer } from "../helpers/server";

const CLIENT_TEXT = "Application error: a client-side exception has occurred (see the browser console for more information).";
const SERVER_TEXT = "Application error: a server-side exception has occurred (see the server logs for more information).";

let server: TestServer;
let internal: InternalProject;
let browser: Browser;
/** The owner's session, for the REST API calls the test makes itself. */

interface Sent {
  url: URL;
  method: string;
  body: string;
}

/** A fresh, signed-in browser context that records every request the page makes after signing in. */
async function openPage(extraHeaders: Record<string, string> = {}): Promise<{ context: BrowserContext; page: Page; sent: Sent[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginInBrowser(page, server.baseUrl);
  await context.setExtraHTTPHeaders(extraHeaders);
  const sent: Sent[] = [];
  page.on("request", (request: Request) => {
    sent.push({ url: new URL(request.url()), method: request.method(), body: request.postData() ?? "" });
  });
  return { context, page, sent };
}

const monitoringRequests = (sent: Sent[]) => sent.filter((request) => request.url.pathname === "/monitoring");

/** Every envelope item type the UI posted to the tunnel so far. */
function itemTypes(sent: Sent[]): Set<string> {
  const types = new Set<string>();
  for (const request of monitoringRequests(sent)) {
    for (const line of request.body.split("\n")) {
      const type = /^\{"type":"([a-z_]+)"/.exec(line)?.[1];
      if (type) types.add(type);
    }
  }
  return types;
}

/** Hiding the page is what makes the browser SDK flush its client reports and buffered data. */
async function hidePage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

async function api<T>(path: string): Promise<T> {
  const response = await server.api(path);
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

/** Periscope's own "periscope" project and its DSN, looked up through the REST API as the owner. */
async function internalProjectOf(): Promise<InternalProject> {
  const [organization] = await api<{ id: string }[]>("/api/0/organizations/");
  const projects = await api<{ id: string; slug: string }[]>("/api/0/organizations/default/projects/");
  const project = projects.find((candidate) => candidate.slug === "periscope");
  assert.ok(organization && project, "the internal project exists from the first start");
  const [key] = await api<{ public: string; dsn: { public: string } }[]>("/api/0/projects/default/periscope/keys/");
  assert.ok(key, "the internal project has a DSN key from the first start");
  return { organizationId: organization.id, projectId: project.id, publicKey: key.public, dsn: key.dsn.public };
}

interface IssueSummary {
  id: string;
  title: string;
  count: string;
}

async function internalIssues(query: string): Promise<IssueSummary[]> {
  return api<IssueSummary[]>(`/api/0/projects/default/periscope/issues/?query=${encodeURIComponent(query)}`);
}

before(async () => {
  assert.ok(chromiumPath(), "Chromium is installed");
  server = await startServer({ ENABLE_TEST_HOOKS: "true", ...ADMIN_ENV });
  internal = await internalProjectOf();
  browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe("self-monitoring through the /monitoring tunnel", () => {
  test("the UI sends sessions and page-load spans to its own origin only, and they are stored", async () => {
    const { context, page, sent } = await openPage();
    await page.goto(`${server.baseUrl}/organizations/default/issues/`);
    // SDK 11 streams spans (v2 span containers) instead of sending transaction events.
    await eventually("a session and page-load spans posted to /monitoring", async () => {
      const types = itemTypes(sent);
      return types.has("session") && types.has("span") ? types : undefined;
    });

    const origin = new URL(server.baseUrl).origin;
    assert.deepEqual(
      [...new Set(sent.map((request) => request.url.origin))].filter((o) => o !== "null"),
      [origin],
      "the page talks to no other origin",
    );
    const expectedSearch = `?o=${internal.organizationId}&p=${internal.projectId}`;
    assert.deepEqual(
      [...new Set(monitoringRequests(sent).map((request) => `${request.method} ${request.url.origin}${request.url.pathname}${request.url.search}`))],
      [`POST ${origin}/monitoring${expectedSearch}`],
    );

    const sessions = await eventually("the session stored in the internal project", async () => {
      const answer = await api<{ groups: { by: Record<string, string>; totals: Record<string, number> }[] }>(
        `/api/0/organizations/default/sessions/?project=${internal.projectId}&field=sum(session)&groupBy=session.status&statsPeriod=24h`,
      );
      const total = answer.groups.reduce((sum, group) => sum + (group.totals["sum(session)"] ?? 0), 0);
      return total >= 1 ? answer : undefined;
    });
    // Every status has a group (count 0 included): the page's session must be counted as healthy.
    const healthy = sessions.groups.find((group) => group.by["session.status"] === "healthy");
    assert.ok((healthy?.totals["sum(session)"] ?? 0) >= 1, JSON.stringify(sessions.groups));

    const transactions = await eventually("the page-load transaction stored in the internal project", async () => {
      const answer = await api<{ data: { transaction: string; "transaction.op": string }[] }>(
        `/api/0/organizations/default/events/?project=${internal.projectId}&dataset=transactions&field=id&field=transaction&field=transaction.op&sort=-timestamp`,
      );
      // Signing in loaded other pages first: look for this page's own page load.
      return answer.data.find((row) => row["transaction.op"] === "pageload" && row.transaction === "/organizations/:org/issues/");
    });
    assert.equal(transactions.transaction, "/organizations/:org/issues/");
    await context.close();
  });

  test("spans, events and breadcrumbs name routes: no organisation slug or query leaves the page", async () => {
    const { context, page, sent } = await openPage();
    await page.goto(`${server.baseUrl}/organizations/default/issues/?query=${encodeURIComponent("user:someone@example.com")}`);
    await eventually("the issue list's spans posted to /monitoring", async () => (itemTypes(sent).has("span") ? true : undefined));
    await hidePage(page);
    await page.goto(`${server.baseUrl}/settings/default/members/`);
    await eventually("the members page's spans posted to /monitoring", async () =>
      monitoringRequests(sent).some((request) => request.body.includes("/settings/:org/members")) ? true : undefined,
    );
    await hidePage(page);
    const bodies = monitoringRequests(sent).map((request) => request.body).join("\n");
    assert.ok(bodies.includes("/organizations/:org/issues/"), "the page load is named by its route");
    for (const leak of ["/organizations/default", "/settings/default", "someone@example.com", "someone%40example.com"]) {
      assert.ok(!bodies.includes(leak), `${leak} was sent to the monitoring project`);
    }
    await context.close();
  });

  test("a client-side exception shows the classic client text and forms an issue in the internal project", async () => {
    const { context, page, sent } = await openPage();
    await page.goto(`${server.baseUrl}/test-hooks/client-error`);
    await page.getByRole("button", { name: "Throw a client-side exception" }).click();
    await page.getByRole("heading", { level: 2 }).waitFor();
    assert.equal(await page.getByRole("heading", { level: 2 }).textContent(), CLIENT_TEXT);
    assert.equal(await page.getByText(/^Digest:/).count(), 0);

    const [issue] = await eventually("the client exception's issue", async () => {
      const issues = await internalIssues("periscope test client exception");
      return issues.length > 0 ? issues : undefined;
    });
    assert.equal(issue!.title, "Error: periscope test client exception");
    assert.ok(itemTypes(sent).has("event"), "the error went through the tunnel");
    await context.close();
  });

  test("a server-side exception shows the server text with its digest, which finds the server-side event", async () => {
    const { context, page } = await openPage();
    const response = await page.goto(`${server.baseUrl}/test-hooks/server-error`);
    assert.equal(response?.status(), 500);
    const heading = page.getByRole("heading", { level: 2 });
    assert.equal(await heading.textContent(), SERVER_TEXT);
    const digestLine = (await page.getByText(/^Digest: /).textContent()) ?? "";
    const digest = /^Digest: (\S+)$/.exec(digestLine)?.[1];
    assert.ok(digest, `a digest line: ${digestLine}`);

    const issues = await eventually("the server-side event with that digest", async () => {
      const found = await internalIssues(`digest:${digest}`);
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(issues.map((issue) => issue.title), ["Error: periscope test server exception"]);
    const latest = await api<{ tags: { key: string; value: string }[] }>(`/api/0/issues/${issues[0]!.id}/events/latest/`);
    assert.deepEqual(latest.tags.find((tag) => tag.key === "digest"), { key: "digest", value: digest });
    await context.close();
  });

  test("a failing root layout renders global-error with the server text and digest", async () => {
    const { context, page } = await openPage({ "x-periscope-test-global-error": "1" });
    await page.goto(`${server.baseUrl}/organizations/default/projects/`);
    assert.equal(await page.getByRole("heading", { level: 2 }).textContent(), SERVER_TEXT);
    assert.match((await page.getByText(/^Digest: /).textContent()) ?? "", /^Digest: \S+$/);
    await context.close();
  });

  test("test-hook pages, like every page, need a signed-in person", async () => {
    for (const hook of ["client-error", "server-error", "drop-event"]) {
      const response = await fetch(`${server.baseUrl}/test-hooks/${hook}`, { redirect: "manual" });
      assert.equal(response.status, 307, hook);
      assert.equal(response.headers.get("location"), `/login?next=${encodeURIComponent(`/test-hooks/${hook}`)}`);
    }
  });

  test("an event dropped by beforeSend is counted through the SDK's client report", async () => {
    const { context, page, sent } = await openPage();
    await page.goto(`${server.baseUrl}/test-hooks/drop-event`);
    await page.getByRole("button", { name: "Capture an event that beforeSend drops" }).click();
    await hidePage(page);
    await eventually("a client report posted to /monitoring", async () => (itemTypes(sent).has("client_report") ? true : undefined));
    const report = monitoringRequests(sent).find((request) => request.body.includes('"type":"client_report"'))!;
    assert.match(report.body, /"reason":"before_send","category":"error","quantity":1/);

    const stats = await eventually("the client report counted in stats", async () => {
      const answer = await api<{ groups: { by: Record<string, string>; totals: Record<string, number>; series?: unknown }[] }>(
        `/api/0/organizations/default/stats_v2/?project=${internal.projectId}&field=sum(quantity)&groupBy=outcome&groupBy=category&groupBy=reason&statsPeriod=24h`,
      );
      return answer.groups.find((group) => group.by.reason === "before_send");
    });
    assert.deepEqual({ by: stats.by, totals: stats.totals }, { by: { outcome: "client_discard", category: "error", reason: "before_send" }, totals: { "sum(quantity)": 1 } });
    await context.close();
  });
});
