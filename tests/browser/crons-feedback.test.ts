/**
 * Cron monitors and user feedback as people see them, in Chromium: the real `@sentry/browser` SDK
 * with its feedback widget (the form filled in and sent) and `captureFeedback` naming an error, and
 * the real `@sentry/node` SDK's `withMonitor` runs. Each is stored, returned by the API with the
 * fields sent, and shown on its page: the Crons list and a monitor's timeline, the Feedback list and
 * detail, and the feedback block of the linked issue's page.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { bundleBrowserApp, serveBrowserApp, type BrowserApp } from "../helpers/browser-app";
import { startServer, type TestServer } from "../helpers/server";


interface FeedbackJson {
  id: string;
  name: string;
  email: string;
  comments: string;
  url: string | null;
  source: string | null;
  issue: { id: string; shortId: string } | null;
  event: { id: string } | null;
}

function bundleApp(dsn: string): Promise<string> {
  return bundleBrowserApp(
    `
        import * as Sentry from "@sentry/browser";
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop-web@4.0.0", environment: "staging", integrations: [Sentry.feedbackIntegration({ autoInject: true, colorScheme: "light" })] });
        document.getElementById("buy").addEventListener("click", () => {
          window.__errorId = Sentry.captureException(new Error("payment form froze"));
        });
        window.__sendLinked = (message) => Sentry.captureFeedback({ message, name: "Linked User", email: "linked@example.com", associatedEventId: window.__errorId });
        window.__sentryReady = true;
      `,
    "feedback-entry.js",
  );
}

const skip = chromiumPath() === null ? "Chromium is not installed (apt-get install -y chromium)" : false;

describe("crons and feedback in Chromium", { skip }, () => {
  let periscope: TestServer;
  let shop: BrowserApp;
  let browser: Browser;
  let page: Page;

  const feedbackList = async () => (await (await periscope.api("/api/0/projects/default/default/user-feedback/")).json()) as FeedbackJson[];

  before(async () => {
    periscope = await startServer({ ...ADMIN_ENV, MONITOR_DETECTION_INTERVAL_MS: "200" });
    shop = await serveBrowserApp(await bundleApp(periscope.dsn), "/checkout", "Checkout");
    Sentry.init({ dsn: periscope.dsn, environment: "production", defaultIntegrations: false });
    browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
    page = await browser.newPage();
    await loginInBrowser(page, periscope.baseUrl);
  });

  after(async () => {
    await Sentry.close(5000);
    await browser?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
    await periscope?.stop();
  });

  test("a monitor's runs show on the Crons list and its timeline", { timeout: 120_000 }, async () => {
    for (const outcome of ["ok", "error"] as const) {
      await Sentry.withMonitor(
        "invoice-run",
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          if (outcome === "error") throw new Error("invoice run failed");
        },
        { schedule: { type: "crontab", value: "15 4 * * 1-5" }, timezone: "America/New_York", failureIssueThreshold: 3 },
      ).catch(() => undefined);
    }
    assert.equal(await Sentry.flush(5000), true);

    await page.goto(`${periscope.baseUrl}/organizations/default/crons`);
    const row = page.getByTestId("monitor-row").filter({ hasText: "invoice-run" });
    await row.waitFor();
    assert.match(await row.innerText(), /15 4 \* \* 1-5/);
    assert.match(await row.innerText(), /America\/New_York/);
    await row.getByRole("link", { name: "invoice-run" }).click();
    await page.getByTestId("check-ins-table").waitFor();
    const statuses = await page.getByTestId("check-ins-table").getByTestId("check-in-status").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status")));
    assert.deepEqual(statuses, ["error", "ok"]);
    const durations = await page.getByTestId("check-in-duration").allInnerTexts();
    // Each run took 1.5 s and a little more.
    for (const text of durations) assert.match(text, /^1\.[5-9] s$|^[2-3]\.\d s$/);
    assert.equal(await page.getByTestId("check-in-strip").locator("span").count(), 2);
  });

  test("a monitor made in the UI: a bad crontab is refused with the reason, a good one is listed", { timeout: 120_000 }, async () => {
    await page.goto(`${periscope.baseUrl}/organizations/default/crons`);
    const form = page.getByTestId("new-monitor");
    await form.getByLabel("Name", { exact: true }).fill("Weekly export");
    await form.getByLabel("Crontab", { exact: true }).fill("0 9 * * 8");
    await form.getByRole("button", { name: "Create monitor" }).click();
    await form.getByRole("alert").waitFor();
    assert.match(await form.getByRole("alert").innerText(), /schedule '0 9 \* \* 8' is not a valid crontab/);
    // The form is reset after each answer (React's form actions): filled in again.
    await form.getByLabel("Name", { exact: true }).fill("Weekly export");
    await form.getByLabel("Crontab", { exact: true }).fill("0 9 * * 1");
    await form.getByLabel("Timezone", { exact: true }).fill("Asia/Tokyo");
    await form.getByRole("button", { name: "Create monitor" }).click();
    await form.getByRole("status").waitFor();
    const monitor = (await (await periscope.api("/api/0/organizations/default/monitors/weekly-export/")).json()) as { config: { schedule: string; timezone: string }; environments: { nextCheckIn: string }[] };
    assert.deepEqual([monitor.config.schedule, monitor.config.timezone], ["0 9 * * 1", "Asia/Tokyo"]);
    // Mondays 09:00 in Tokyo are Mondays 00:00 UTC.
    const next = new Date(monitor.environments[0]!.nextCheckIn);
    assert.deepEqual([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()], [1, 0, 0]);
    await page.reload();
    const row = page.getByTestId("monitor-row").filter({ hasText: "weekly-export" });
    await row.waitFor();

    // Disabled on its page: no longer expected; then deleted, back to the list without it.
    await row.getByRole("link", { name: "Weekly export" }).click();
    await page.getByRole("button", { name: "Disable monitor" }).click();
    await page.getByTestId("monitor-status-form").getByRole("status").waitFor();
    const disabled = (await (await periscope.api("/api/0/organizations/default/monitors/weekly-export/")).json()) as { status: string; environments: { nextCheckIn: string | null }[] };
    assert.deepEqual([disabled.status, disabled.environments[0]!.nextCheckIn], ["disabled", null]);
    await Promise.all([page.waitForURL(/\/crons$/), page.getByRole("button", { name: "Delete monitor" }).click()]);
    await page.getByRole("heading", { level: 1, name: "Crons" }).waitFor();
    assert.equal(await page.getByTestId("monitor-row").filter({ hasText: "weekly-export" }).count(), 0);
    assert.equal((await periscope.api("/api/0/organizations/default/monitors/weekly-export/")).status, 404);
  });

  test("the feedback widget's report and a linked captureFeedback are stored and shown", { timeout: 120_000 }, async () => {
    const shopPage = await browser.newPage();
    try {
      await shopPage.goto(`${shop.url}/checkout?step=2`);
      await shopPage.waitForFunction(() => (window as unknown as { __sentryReady?: boolean }).__sentryReady === true);
      // The widget: its button opens the form; name, email and description are filled in and sent.
      await shopPage.getByRole("button", { name: "Report a Bug" }).click();
      await shopPage.getByLabel("Name").fill("Widget User");
      await shopPage.getByLabel("Email").fill("widget@example.com");
      await shopPage.getByLabel("Description").fill("The pay button spins forever");
      const sent = shopPage.waitForResponse((response) => response.url().startsWith(`${periscope.baseUrl}/api/${periscope.projectId}/envelope/`));
      await shopPage.getByRole("button", { name: "Send Bug Report" }).click();
      assert.equal((await sent).status(), 200);
      await shopPage.getByText("Thank you for your report!").waitFor();

      // An error, then feedback naming it.
      await shopPage.click("#buy");
      const errorId = await shopPage.evaluate(() => (window as unknown as { __errorId: string }).__errorId);
      await shopPage.evaluate(() => (window as unknown as { __sendLinked: (m: string) => void }).__sendLinked("It froze after I paid"));
      const deadline = Date.now() + 15_000;
      let list = await feedbackList();
      while (list.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        list = await feedbackList();
      }
      const widget = list.find((item) => item.comments === "The pay button spins forever");
      assert.deepEqual(
        widget && { name: widget.name, email: widget.email, url: widget.url, source: widget.source },
        { name: "Widget User", email: "widget@example.com", url: `${shop.url}/checkout?step=2`, source: "widget" },
      );
      const linked = list.find((item) => item.comments === "It froze after I paid");
      assert.equal(linked?.event?.id, errorId);

      // The list and the detail page.
      await page.goto(`${periscope.baseUrl}/organizations/default/feedback`);
      const item = page.getByTestId("feedback-item").filter({ hasText: "The pay button spins forever" });
      await item.waitFor();
      await item.getByTestId("feedback-author").click();
      await page.getByTestId("feedback-email").waitFor();
      assert.equal(await page.getByTestId("feedback-name").innerText(), "Widget User");
      assert.equal(await page.getByTestId("feedback-email").innerText(), "widget@example.com");
      assert.equal(await page.getByTestId("feedback-url").innerText(), `${shop.url}/checkout?step=2`);

      // The linked error's issue page shows the feedback.
      const event = (await (await periscope.api(`/api/0/projects/default/default/events/${errorId}/`)).json()) as { groupID: string };
      await page.goto(`${periscope.baseUrl}/organizations/default/issues/${event.groupID}`);
      const block = page.getByTestId("issue-feedback");
      await block.waitFor();
      assert.match(await block.innerText(), /It froze after I paid/);
      assert.match(await block.innerText(), /Linked User/);
    } finally {
      await shopPage.close();
    }
  });
});
