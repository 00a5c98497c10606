import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { startServer } from "../helpers/server";

/**
 * The organisation's Security & Privacy page in Chromium, signed in as the owner: reached from the
 * settings nav, an extra sensitive field saved through it filters a value planted by the real
 * @sentry/node SDK in the next event (API and event page), while the project's page shows it as
 * inherited; a bad advanced rule regex is refused with the message naming the rule.
 */
const PLANTED = "violet-4412-planted";

test("organisation Security & Privacy page: a sensitive field saved there filters new events", { timeout: 120_000 }, async () => {
  const server = await startServer({ ...ADMIN_ENV });
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
  Sentry.init({ dsn: server.dsn, defaultIntegrations: false });
  const send = async (message: string) => {
    const id = Sentry.captureMessage(message, { extra: { favourite_colour_code: PLANTED, shoe_size: "43" } });
    assert.equal(await Sentry.flush(5000), true);
    return id;
  };
  const extraOf = async (eventId: string) => {
    const event = (await (await server.api(`/api/0/projects/default/default/events/${eventId}/`)).json()) as { groupID: string; context: Record<string, unknown> };
    return event;
  };
  try {
    // Before: the value is not sensitive, and is stored as sent.
    const before = await extraOf(await send("before the org setting"));
    assert.equal(before.context.favourite_colour_code, PLANTED);

    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    await loginInBrowser(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/settings/default/members`);
    await page.getByRole("link", { name: "Organisation privacy" }).click();
    await page.waitForURL(/\/settings\/default\/security$/);
    await page.fill("#sensitiveFields", "colour_code");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(/saved for every project/).waitFor();
    const api = (await (await server.api("/api/0/organizations/default/")).json()) as { sensitiveFields: string[] };
    assert.deepEqual(api.sensitiveFields, ["colour_code"]);

    // After: the next event's value is filtered, the rest kept, and its page says so.
    const eventId = await send("after the org setting");
    const after = await extraOf(eventId);
    assert.equal(after.context.favourite_colour_code, "[Filtered]");
    assert.equal(after.context.shoe_size, "43");
    await page.goto(`${server.baseUrl}/organizations/default/issues/${after.groupID}/events/${eventId}`);
    await page.getByTestId("scrubbing-note").waitFor();
    assert.equal((await page.content()).includes(PLANTED), false, "the event page shows the planted value");

    // The project's page lists it as inherited from the organisation.
    await page.goto(`${server.baseUrl}/settings/default/projects/default/security`);
    await page.getByText("From the organisation: colour_code").waitFor();

    // A bad advanced rule is refused with the rule named; the saved settings are unchanged.
    await page.goto(`${server.baseUrl}/settings/default/security`);
    const bad = JSON.stringify({ rules: { broken: { type: "pattern", pattern: "(unclosed", redaction: { method: "replace", text: "x" } } }, applications: { $string: ["broken"] } });
    await page.fill("#relayPiiConfig", bad);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const refusal = page.getByText(/rule "broken": invalid pattern/);
    await refusal.waitFor();
    const unchanged = (await (await server.api("/api/0/organizations/default/")).json()) as { relayPiiConfig: string | null };
    assert.equal(unchanged.relayPiiConfig ?? "", "");
  } finally {
    await Sentry.close(2000);
    await browser.close();
    await server.stop();
  }
});
