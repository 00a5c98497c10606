import assert from "node:assert/strict";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { startServer } from "../helpers/server";

/**
 * The quota settings pages in Chromium, signed in as the owner (issue 33 item 4): a project quota
 * and spike protection set through the project's page, and an organisation quota through the
 * organisation's, reach the quota API; the page shows the current window's use; a bad limit is
 * refused with a message naming the cell, and nothing is changed by it.
 */
test("quota settings pages change what the quota API reports", { timeout: 120_000 }, async () => {
  const server = await startServer({ ...ADMIN_ENV });
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
    await loginInBrowser(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/settings/default/projects/default/keys`);
    await page.getByRole("link", { name: "Quotas", exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/settings/default/projects/default/quotas`);
    await page.getByLabel("Errors per hour").fill("2");
    await page.getByLabel("Sessions per month").fill("1,000");
    await page.getByLabel("Limit sudden spikes automatically").check();
    await page.getByRole("button", { name: "Save quotas" }).click();
    await page.getByText("Quotas saved.").waitFor();
    type Answer = { quotas: { category: string; window: string; limit: number; used: number }[]; spikeProtection?: { enabled: boolean } };
    const project = (await (await server.api("/api/0/projects/default/default/quotas/")).json()) as Answer;
    assert.deepEqual(project.quotas.map(({ category, window, limit }) => [category, window, limit]), [["error", "hour", 2], ["session", "month", 1000]]);
    assert.equal(project.spikeProtection?.enabled, true);

    // One error through the SDK's endpoint: the page shows it as used.
    const [key] = (await (await server.api("/api/0/projects/default/default/keys/")).json()) as { public: string }[];
    const sent = await fetch(`${server.baseUrl}/api/${server.projectId}/store/?sentry_key=${key!.public}&sentry_version=7`, { method: "POST", body: JSON.stringify({ message: "counted" }) });
    assert.equal(sent.status, 200);
    await page.reload();
    assert.equal(await page.getByTestId("used-error-hour").innerText(), "1 used");

    await page.getByLabel("Errors per hour").fill("two");
    await page.getByRole("button", { name: "Save quotas" }).click();
    const refusal = page.getByText(/error per hour: must be a whole number/);
    await refusal.waitFor();
    const unchanged = (await (await server.api("/api/0/projects/default/default/quotas/")).json()) as Answer;
    assert.deepEqual(unchanged.quotas.map(({ limit }) => limit), [2, 1000]);

    // The settings sections link both pages.
    await page.getByRole("link", { name: "Organisation quotas", exact: true }).first().click();
    await page.waitForURL(`${server.baseUrl}/settings/default/quotas`);
    await page.getByLabel("Transactions per day").fill("5000");
    await page.getByRole("button", { name: "Save quotas" }).click();
    await page.getByText("Quotas saved.").waitFor();
    const organization = (await (await server.api("/api/0/organizations/default/quotas/")).json()) as Answer;
    assert.deepEqual(organization.quotas.map(({ category, window, limit, used }) => [category, window, limit, used]), [["transaction", "day", 5000, 0]]);
  } finally {
    await browser.close();
    await server.stop();
  }
});
