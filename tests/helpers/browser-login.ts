/**
 * Signing in for the browser tests: through the real login form in Chromium, or through the
 * /auth/login endpoint (JSON) for the requests a test makes itself.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";

export const ADMIN_EMAIL = "owner@periscope.test";
export const ADMIN_PASSWORD = "correct horse battery staple";
/** startServer(ADMIN_ENV) creates the owner of the default organisation at first start. */
export const ADMIN_ENV = { PERISCOPE_ADMIN_EMAIL: ADMIN_EMAIL, PERISCOPE_ADMIN_PASSWORD: ADMIN_PASSWORD };

/** Fills in /login and waits until the browser has left it (signed in). */
export async function loginInBrowser(page: Page, baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD, next?: string): Promise<void> {
  await page.goto(`${baseUrl}/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** A Cookie header value carrying a fresh session, for fetch() calls made by the test itself. */
export async function sessionCookie(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(response.status, 200, `login as ${email}: ${await response.clone().text()}`);
  const cookies = response.headers.getSetCookie().map((value) => value.split(";")[0]!);
  assert.ok(cookies.some((cookie) => cookie.startsWith("periscope_session=")), "a session cookie is set");
  return cookies.join("; ");
}
