import assert from "node:assert/strict";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { startServer } from "../helpers/server";

/**
 * The key and inbound-filter settings pages in Chromium, signed in as the owner: a key's rate limit
 * changed and the key disabled through the page reach the key API; a filter turned on through the
 * page reaches the filter API; a bad CIDR range is refused with a message naming it.
 */
test("key and inbound-filter settings pages change what the API reports", { timeout: 120_000 }, async () => {
  const server = await startServer({ ...ADMIN_ENV });
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    await loginInBrowser(page, server.baseUrl);
    const keys = await server.api("/api/0/projects/default/default/keys/");
    const [key] = (await keys.json()) as { id: string }[];
    await server.api(`/api/0/projects/default/default/keys/${key!.id}/`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ rateLimit: { window: 60, count: 100 } }) });
    await page.goto(`${server.baseUrl}/settings/default/projects/default/keys`);
    await page.fill("input[name=rateLimitCount]", "500");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(/saved\./).waitFor();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByText(/disabled\./).waitFor();
    const after = (await (await server.api(`/api/0/projects/default/default/keys/${key!.id}/`)).json()) as { isActive: boolean; rateLimit: { count: number } };
    assert.deepEqual([after.isActive, after.rateLimit.count], [false, 500]);
    await page.goto(`${server.baseUrl}/settings/default/projects/default/filters`);
    await page.getByLabel("Filter out known web crawlers").check();
    await page.getByRole("button", { name: "Save filters" }).click();
    await page.getByText("Filters saved.").waitFor();
    await page.fill("#filter-ipAddresses", "10.0.0.0/40");
    await page.getByRole("button", { name: "Save custom filters" }).click();
    // Wait for the answer itself: the field's hint also names CIDR ranges and is there from the start.
    const refusal = page.getByText(/must be an IP address or a CIDR range/);
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /filters:blacklisted_ips: must be an IP address or a CIDR range/);
    const filters = (await (await server.api("/api/0/projects/default/default/filters/")).json()) as { id: string; active: unknown }[];
    assert.deepEqual(filters.map((filter) => [filter.id, filter.active]), [["browser-extensions", false], ["localhost", false], ["legacy-browsers", false], ["web-crawlers", true]]);
  } finally {
    await browser.close();
    await server.stop();
  }
});
