import assert from "node:assert/strict";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { startServer } from "../helpers/server";

/**
 * The metric alert pages in Chromium (issue 34 item 2), signed in as the owner: "New metric alert"
 * on the project's Alerts page opens the editor; a threshold that is not a number is refused with
 * the field named and nothing saved; a good rule is created, reaches the API in Sentry's shape, and
 * is listed with its state.
 */
test("metric alerts: editor with validation, create, listed with state", { timeout: 120_000 }, async () => {
  const server = await startServer({ ...ADMIN_ENV, ALERTS_INTERVAL_MS: "100" });
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
  const rules = async () => (await (await server.api("/api/0/organizations/default/alert-rules/")).json()) as { id: string; name: string; aggregate: string; timeWindow: number; triggers: { label: string; alertThreshold: number; actions: unknown[] }[]; state: string }[];
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
    await loginInBrowser(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/organizations/default/alerts/default`);
    await page.getByRole("link", { name: "New metric alert" }).click();
    await page.waitForURL(/\/alerts\/default\/metric\/new$/);
    await page.fill("input[name=name]", "Too many errors");
    await page.selectOption("select[name=time_window]", "15");
    await page.fill("input[name=critical]", "lots");
    await page.fill("input[name=webhook_url]", "https://hooks.example/metric");
    await page.getByRole("button", { name: "Create rule" }).click();
    const refusal = page.getByText(/must be a number/);
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /triggers\.0\.alertThreshold: must be a number/);
    assert.equal((await rules()).length, 0, "nothing saved");

    await page.fill("input[name=critical]", "100");
    await page.fill("input[name=warning]", "50");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/default\/metric\/\d+$/, { timeout: 8000 });
    await page.getByTestId("metric-state").waitFor();
    const [created] = await rules();
    assert.deepEqual(
      { name: created?.name, aggregate: created?.aggregate, timeWindow: created?.timeWindow, triggers: created?.triggers.map((t) => [t.label, t.alertThreshold, t.actions]) },
      {
        name: "Too many errors", aggregate: "count()", timeWindow: 15,
        triggers: [
          ["critical", 100, [{ type: "webhook", targetType: "specific", targetIdentifier: "https://hooks.example/metric", format: "json" }]],
          ["warning", 50, [{ type: "webhook", targetType: "specific", targetIdentifier: "https://hooks.example/metric", format: "json" }]],
        ],
      },
    );

    await page.goto(`${server.baseUrl}/organizations/default/alerts/default`);
    const listed = page.getByTestId("metric-rules");
    await listed.waitFor();
    assert.match(await listed.innerText(), /Too many errors\s*ok[\s\S]*Number of errors above 100 \(critical\), 50 \(warning\) over 15 min/);
  } finally {
    await browser.close();
    await server.stop();
  }
});
