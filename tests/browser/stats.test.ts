/**
 * The stats page in Chromium against a real Periscope: real envelopes (accepted events, an invalid
 * event item, an SDK client report of discarded events) to two projects, then the totals per
 * outcome, the reasons table and the chart (canvas drawn, one series per outcome), the filters
 * (project, category) and the time-range picker changing the URL and the figures, a bad range in
 * the URL answered with a message, and the project card's "Dropped" figure leading to the page.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { eventually } from "../helpers/monitoring";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

/** What the test sends, and so what the page must show (counted here, not read back from the server). */
const SHOP_EVENTS = 3;
const OTHER_EVENTS = 2;
const SHOP_DISCARDS = [
  { reason: "queue_overflow", category: "error", quantity: 4 },
  { reason: "sample_rate", category: "transaction", quantity: 2 },
];
const SHOP_INVALID = 1;
const OUTCOMES = ["accepted", "filtered", "rate_limited", "invalid", "client_discard"] as const;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const eventItem = (message: string) => line({ type: "event" }) + line({ event_id: randomBytes(16).toString("hex"), platform: "node", message });

function suite(engine: "sqlite" | "postgres"): void {
  describe(`the stats page: ${engine}`, { timeout: 180_000 }, () => {
    let server: TestServer;
    let schema: TestSchema | null = null;
    let browser: Browser;
    let page: Page;
    let otherId: string;

    const org = () => server.organizationSlug;
    const statsUrl = (query: string) => `${server.baseUrl}/organizations/${org()}/stats${query}`;
    const api = async <T>(apiPath: string, init: RequestInit = {}): Promise<T> => {
      const response = await server.api(apiPath, init);
      const text = await response.text();
      assert.ok(response.ok, `${init.method ?? "GET"} ${apiPath}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };
    const send = async (projectId: string, publicKey: string, envelope: string) => {
      const response = await fetch(`${server.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}`, { method: "POST", body: envelope });
      assert.equal(response.status, 200, await response.text());
    };
    const totals = async () =>
      Object.fromEntries(await Promise.all(OUTCOMES.map(async (outcome) => [outcome, await page.getByTestId(`total-${outcome}`).getAttribute("title")])));
    const reasonRows = async () =>
      Promise.all((await page.getByTestId("reason-row").all()).map(async (row) => (await row.locator("td").allInnerTexts()).map((text) => text.trim())));

    before(async () => {
      if (engine === "postgres") schema = await freshSchema();
      server = await startServer({ ...ADMIN_ENV, ...(schema ? { DATABASE_URL: schema.url } : {}) });
      const created = await api<{ id: string; slug: string }>(`/api/0/teams/${org()}/default/projects/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Other service", slug: "other-service" }),
      });
      otherId = created.id;
      const [otherKey] = await api<{ public: string }[]>(`/api/0/projects/${org()}/${created.slug}/keys/`);

      for (let index = 0; index < SHOP_EVENTS; index++) await send(server.projectId, server.publicKey, line({}) + eventItem(`shop failure ${index}`));
      for (let index = 0; index < OTHER_EVENTS; index++) await send(otherId, otherKey!.public, line({}) + eventItem(`other failure ${index}`));
      // An event item that is not JSON, next to a client report of what the SDK dropped itself.
      const report = { timestamp: Date.now() / 1000, discarded_events: SHOP_DISCARDS };
      await send(server.projectId, server.publicKey, line({}) + line({ type: "event" }) + "{not json\n" + line({ type: "client_report" }) + line(report));

      // Ingest is asynchronous: wait until stats_v2 counts everything sent.
      const expected = SHOP_EVENTS + OTHER_EVENTS + SHOP_INVALID + SHOP_DISCARDS.reduce((sum, entry) => sum + entry.quantity, 0);
      await eventually("every outcome counted", async () => {
        const answer = await api<{ groups: { totals: Record<string, number> }[] }>(
          `/api/0/organizations/${org()}/stats_v2/?field=sum(quantity)&groupBy=category&statsPeriod=24h`,
        );
        const counted = answer.groups.reduce((sum, group) => sum + (group.totals["sum(quantity)"] ?? 0), 0);
        return counted >= expected ? true : undefined;
      });

      browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await loginInBrowser(page, server.baseUrl);
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
      await schema?.drop();
    });

    test("totals, reasons and the chart of one project", { timeout: 60_000 }, async () => {
      await page.goto(statsUrl(`?project=${server.projectId}`));
      assert.deepEqual(await totals(), { accepted: String(SHOP_EVENTS), filtered: "0", rate_limited: "0", invalid: String(SHOP_INVALID), client_discard: "4" });
      assert.deepEqual(await reasonRows(), [
        ["Client discarded", "queue_overflow", "error", "4"],
        ["Client discarded", "sample_rate", "transaction", "2"],
        ["Invalid", "invalid_json", "error", "1"],
      ]);
      // uPlot drew its canvas, with one series per outcome; the legend totals match the figures.
      const chart = page.getByTestId("chart");
      await page.locator('[data-testid="chart"][data-drawn-series="5"] canvas').waitFor();
      assert.equal(await chart.getAttribute("data-series"), "5");
      const legend = (await page.getByTestId("chart-legend-item").allInnerTexts()).map((text) => text.replace(/\s+/g, " ").trim());
      assert.deepEqual(legend, ["Accepted 3", "Filtered 0", "Rate limited 0", "Invalid 1", "Client discarded 4"]);
      assert.match((await chart.getByRole("img").getAttribute("aria-label")) ?? "", /Totals: Accepted 3, Filtered 0, Rate limited 0, Invalid 1, Client discarded 4/);
      // The sidebar marks the section.
      assert.equal(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Stats" }).getAttribute("aria-current"), "page");
    });

    test("the filters and the time-range picker change the URL and the figures", { timeout: 60_000 }, async () => {
      await page.goto(statsUrl(`?project=${server.projectId}`));
      // Category: transactions of the project.
      await Promise.all([page.waitForURL(/category=transaction/), page.getByTestId("filter-bar").getByLabel("Category").selectOption("transaction")]);
      assert.deepEqual(await totals(), { accepted: "0", filtered: "0", rate_limited: "0", invalid: "0", client_discard: "2" });
      assert.match(page.url(), new RegExp(`project=${server.projectId}`));
      // Project: all of them (the parameter leaves the URL), back to errors.
      await Promise.all([page.waitForURL((url) => !url.searchParams.has("project")), page.getByTestId("filter-bar").getByLabel("Project").selectOption("")]);
      await Promise.all([page.waitForURL(/category=error/), page.getByTestId("filter-bar").getByLabel("Category").selectOption("error")]);
      assert.equal((await totals()).accepted, String(SHOP_EVENTS + OTHER_EVENTS));

      // A preset period: in the URL, marked, same figures (everything was sent just now).
      const picker = page.getByTestId("time-range-picker");
      await Promise.all([page.waitForURL(/statsPeriod=7d/), picker.getByRole("link", { name: "7d" }).click()]);
      assert.equal(await picker.getByRole("link", { name: "7d" }).getAttribute("aria-current"), "true");
      assert.equal((await totals()).accepted, String(SHOP_EVENTS + OTHER_EVENTS));
      // A custom range in the past: nothing in it.
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      await picker.getByText("Custom").click();
      await picker.getByLabel("Start date (UTC)").fill(day(20));
      await picker.getByLabel("End date (UTC, included)").fill(day(10));
      await Promise.all([page.waitForURL(/start=.*&end=/), picker.getByRole("button", { name: "Apply range" }).click()]);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get("start"), day(20));
      assert.equal(url.searchParams.get("end"), day(10));
      assert.equal(url.searchParams.has("statsPeriod"), false);
      assert.deepEqual(await totals(), { accepted: "0", filtered: "0", rate_limited: "0", invalid: "0", client_discard: "0" });
      await page.getByRole("heading", { name: "Nothing was dropped in this range" }).waitFor();
    });

    test("a range the page cannot read is a message, not an error page", { timeout: 60_000 }, async () => {
      const response = await page.goto(statsUrl("?statsPeriod=forever"));
      assert.equal(response?.status(), 200);
      assert.match(await page.getByTestId("stats-problem").innerText(), /Invalid time range "forever": use a number and a unit/);
      await page.goto(statsUrl("?start=2026-11-05&end=2026-11-01"));
      assert.match(await page.getByTestId("stats-problem").innerText(), /end date must be after the start date/);
      await page.goto(statsUrl("?category=Not%20a%20category"));
      assert.match(await page.getByTestId("stats-problem").innerText(), /Invalid category "Not a category": expected a data category/);
      const unknown = await page.goto(statsUrl("?project=999999"));
      assert.equal(unknown?.status(), 404);
    });

    test("the project card's Dropped figure links to the project's stats", { timeout: 60_000 }, async () => {
      await page.goto(`${server.baseUrl}/organizations/${org()}/projects`);
      const links = page.getByTestId("dropped-link");
      const hrefs = await links.evaluateAll((elements) => elements.map((element) => element.getAttribute("href")));
      const link = links.nth(hrefs.findIndex((href) => href?.includes(`project=${server.projectId}`)));
      assert.equal(await link.getAttribute("href"), `/organizations/${org()}/stats?project=${server.projectId}&statsPeriod=30d`);
      assert.equal((await link.innerText()).trim(), "7");
      await Promise.all([page.waitForURL(/\/stats\?project=.*statsPeriod=30d/), link.click()]);
      assert.equal(await page.getByTestId("time-range-picker").getByRole("link", { name: "30d" }).getAttribute("aria-current"), "true");
      assert.equal((await reasonRows()).reduce((sum, row) => sum + Number(row[3]), 0), 7);
    });
  });
}

suite("sqlite");
if (await postgresForTests("the stats page: postgres")) suite("postgres");
