import assert from "node:assert/strict";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { startWebhookReceiver, waitFor } from "../helpers/alert-receivers";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { startServer } from "../helpers/server";

/**
 * The alert pages in Chromium, signed in as the owner (issue 34): the Alerts entry opens the
 * project's rules with the default one; a new rule with a non-http webhook is refused with the field
 * named and nothing saved; a good one is created through the page and reaches the API; its test
 * button sends a signed test webhook to a real receiver and the delivery log shows it sent; mute
 * shows through the API; the personal email setting turns off.
 */
test("alert rules: list, editor with validation, test notification, delivery log, mute", { timeout: 120_000 }, async () => {
  const receiver = await startWebhookReceiver();
  const server = await startServer({ ...ADMIN_ENV, ALERTS_INTERVAL_MS: "100" });
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
  const rules = async () => (await (await server.api("/api/0/projects/default/default/rules/")).json()) as { id: string; name: string; snooze: boolean; actions: unknown[] }[];
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
    await loginInBrowser(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/organizations/default/issues`);
    await page.getByRole("link", { name: "Alerts" }).first().click();
    await page.waitForURL(/\/organizations\/default\/alerts\/default$/);
    await page.getByText("Send a notification for new issues and regressions").waitFor();

    await page.getByRole("link", { name: "New alert rule" }).click();
    await page.waitForURL(/\/alerts\/default\/new$/);
    await page.fill("input[name=name]", "Hook from the page");
    await page.getByLabel("Email the project's team").uncheck();
    await page.fill("input[name=webhook_url]", "ftp://hooks.example/x");
    await page.getByRole("button", { name: "Create rule" }).click();
    // By its text: Next's route announcer is a role=alert element too.
    const refusal = page.getByText(/must be an http/);
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /actions\.0\.url: must be an http:\/\/ or https:\/\/ URL, not ftp:/);
    assert.equal((await rules()).length, 1, "nothing saved");

    await page.fill("input[name=webhook_url]", `${receiver.url}/from-page`);
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.waitForURL(/\/alerts\/default\/\d+$/, { timeout: 8000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${page.url()}\n${(await page.locator("main").innerText()).slice(0, 3000)}\n${server.output().slice(-3000)}`);
    });
    const created = (await rules()).find((rule) => rule.name === "Hook from the page");
    assert.deepEqual(created?.actions, [{ id: "periscope.rules.actions.WebhookAction", url: `${receiver.url}/from-page`, format: "json" }]);

    await page.getByRole("button", { name: "Send test notification" }).click();
    await page.getByText(/Test queued for/).waitFor();
    const hook = await waitFor("the test webhook", () => receiver.hooks.find((candidate) => candidate.path === "/from-page"));
    assert.equal(hook.json.action, "test");
    await page.waitForTimeout(300);
    await page.reload();
    const log = page.getByTestId("delivery-log");
    await log.waitFor();
    assert.match(await log.innerText(), /Test notification[\s\S]*json webhook[\s\S]*sent/);

    await page.getByRole("button", { name: "Mute" }).click();
    await page.getByText(/Rule muted/).waitFor();
    assert.equal((await rules()).find((rule) => rule.id === created!.id)?.snooze, true);

    await page.goto(`${server.baseUrl}/organizations/default/alerts/default`);
    const mine = page.getByTestId("my-alert-email");
    await mine.getByRole("checkbox").uncheck();
    await mine.getByRole("button", { name: "Save" }).click();
    await page.getByText("You get no alert email for this project.").waitFor();
    await page.reload();
    assert.equal(await page.getByTestId("my-alert-email").getByRole("checkbox").isChecked(), false);
  } finally {
    await browser.close();
    await server.stop();
    await receiver.close();
  }
});
