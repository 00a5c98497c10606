/**
 * Accounts end to end in Chromium against a real Periscope started without any account: the setup
 * page creates the owner, who creates a project and an invite link; a second person (another
 * browser) joins as a viewer, sees only their team's projects, and cannot resolve an issue — the
 * button is disabled and the server refuses the action when it is sent anyway. Then login
 * throttling, logout, cross-origin refusal and the security headers.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { chromiumArgs } from "../helpers/chromium";
import { loginInBrowser, startServerWithoutOwner, type FreshServer } from "../helpers/browser-login";
import { eventually } from "../helpers/monitoring";

const OWNER = { name: "Olive Owner", email: "olive@periscope.test", password: "owner-password-1" };
const VIEWER = { name: "Victor Viewer", email: "victor@periscope.test", password: "viewer-password-1" };
const ISSUE_MESSAGE = "Checkout total was negative";

interface Violation {
  page: string;
  text: string;
}

let server: FreshServer;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };
let viewer: { context: BrowserContext; page: Page };
const violations: Violation[] = [];
const monitoringPosts: { url: string; status: number }[] = [];
let checkoutProjectId = "";
let issueUrl = "";

/** A context that records CSP violations (console and event) and every POST to /monitoring. */
async function openContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push({ page: page.url(), text: message.text() });
  });
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname === "/monitoring" && response.request().method() === "POST") monitoringPosts.push({ url: response.url(), status: response.status() });
  });
  return { context, page };
}

/** Sends one error event to a project through the ingest door, as an SDK would. */
async function sendEvent(projectId: string, publicKey: string, message: string): Promise<void> {
  const eventId = randomBytes(16).toString("hex");
  const event = { event_id: eventId, level: "error", platform: "javascript", timestamp: Date.now() / 1000, exception: { values: [{ type: "RangeError", value: message }] } };
  const body = `${JSON.stringify({ event_id: eventId })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
  const response = await fetch(`${server.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, { method: "POST", body });
  assert.equal(response.status, 200, await response.text());
}

before(async () => {
  server = await startServerWithoutOwner();
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
  owner = await openContext();
  viewer = await openContext();
});

after(async () => {
  await browser?.close();
  if (process.env.DUMP_SERVER_OUTPUT) console.log(server?.output());
  await server?.stop();
});

describe("accounts in Chromium", () => {
  test("the first visit leads to the setup page, which creates the owner and signs them in", { timeout: 60_000 }, async () => {
    assert.match(server.setupUrl, new RegExp(`^${server.baseUrl}/setup\\?token=[0-9a-f]{64}$`));
    const { page } = owner;
    await page.goto(`${server.baseUrl}/organizations/default/issues`);
    assert.equal(new URL(page.url()).pathname, "/setup");
    // Without the printed link's token the page offers no form, and the endpoint refuses.
    await page.getByTestId("setup-link-needed").waitFor();
    assert.equal(await page.getByTestId("setup-form").count(), 0);
    for (const token of [undefined, "0".repeat(64)]) {
      const refused = await fetch(`${server.baseUrl}/auth/setup`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "mallory@periscope.test", password: "takeover-attempt", token }),
      });
      assert.deepEqual({ status: refused.status, body: await refused.json() }, {
        status: 403,
        body: { detail: "The setup token is missing or wrong: use the setup link printed in the server console." },
      });
    }
    await page.goto(server.setupUrl);

    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Repeat the password").fill("something else");
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByRole("alert").filter({ hasText: "The two passwords are not the same." }).waitFor();

    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Repeat the password").fill(OWNER.password);
    await Promise.all([page.waitForURL(/\/organizations\/default\/projects$/), page.getByRole("button", { name: "Create owner account" }).click()]);
    const projects = await page.locator("#projects-title ~ ul li").allInnerTexts();
    assert.ok(projects.some((text) => text.includes("periscope")), `the owner sees the self-monitoring project: ${projects.join(" | ")}`);

    // Setup is over: the page sends people to sign in, and the endpoint refuses a second owner.
    const again = await fetch(`${server.baseUrl}/setup`, { redirect: "manual" });
    assert.equal(again.status, 307);
    assert.equal(again.headers.get("location"), "/login");
    const second = await fetch(`${server.baseUrl}/auth/setup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "mallory@periscope.test", password: "takeover-attempt" }),
    });
    assert.equal(second.status, 409);
    assert.deepEqual(await second.json(), { detail: "Setup is already complete: an account exists; sign in instead." });
  });

  test("the owner creates a project for a team and an invite link for a viewer", { timeout: 60_000 }, async () => {
    const { page } = owner;
    await page.goto(`${server.baseUrl}/organizations/default/projects`);
    await page.getByLabel("Name").fill("Checkout");
    await page.getByLabel("Team").selectOption("default");
    await Promise.all([page.waitForURL(/\/settings\/default\/projects\/checkout\/keys\?created=1$/), page.getByRole("button", { name: "Create project" }).click()]);
    const dsn = new URL(await page.getByTestId("dsn").first().innerText());
    checkoutProjectId = dsn.pathname.slice(1);
    await sendEvent(checkoutProjectId, dsn.username, ISSUE_MESSAGE);

    await page.goto(`${server.baseUrl}/settings/default/members`);
    const form = page.getByTestId("invite-form");
    await form.getByLabel("Role").selectOption("viewer");
    assert.equal(await form.getByLabel("Default team").isChecked(), true);
    await form.getByRole("button", { name: "Create invite link" }).click();
    const link = await form.getByTestId("one-time-secret").innerText();
    assert.match(link, new RegExp(`^${server.baseUrl}/invite/[0-9a-f]{64}$`));
    await page.reload();
    assert.equal(await page.getByTestId("one-time-secret").count(), 0, "the link is shown once");
    assert.match(await page.getByTestId("pending-invites").innerText(), /viewer\s+anyone with the link/);

    await viewer.page.goto(link);
    assert.equal(await viewer.page.getByTestId("invite-summary").innerText(), "You are invited to Default organization as viewer.");
    const signup = viewer.page.getByTestId("invite-signup");
    await signup.getByLabel("Your name").fill(VIEWER.name);
    await signup.getByLabel("Email").fill(VIEWER.email);
    await signup.getByLabel("Password", { exact: true }).fill(VIEWER.password);
    await signup.getByLabel("Repeat the password").fill(VIEWER.password);
    await Promise.all([viewer.page.waitForURL(/\/organizations\/default\/issues$/), signup.getByRole("button", { name: "Create account and join" }).click()]);

    // The link admitted one person: it is spent now.
    const reused = await fetch(link);
    assert.match(await reused.text(), /This invite link has already been used\./);
  });

  test("the viewer sees only their team's projects and cannot resolve an issue", { timeout: 90_000 }, async () => {
    const { page } = viewer;
    await page.goto(`${server.baseUrl}/organizations/default/projects`);
    const names = (await page.locator("#projects-title ~ ul li a.text-base").allInnerTexts()).sort();
    assert.deepEqual(names, ["Checkout", "Default project"]);
    assert.match(await page.locator("#create").innerText(), /Only owners and admins can create projects\. Your role is viewer\./);
    const hidden = await page.goto(`${server.baseUrl}/settings/default/projects/periscope/keys`);
    assert.equal(hidden?.status(), 404, "the self-monitoring project is not the viewer's");
    const audit = await page.goto(`${server.baseUrl}/settings/default/audit-log`);
    assert.equal(audit?.status(), 404, "the audit log is for owners and admins");
    await page.goto(`${server.baseUrl}/settings/default/members`);
    assert.equal(await page.getByTestId("invite-form").count(), 0);

    const row = await eventually("the Checkout issue in the viewer's list", async () => {
      await page.goto(`${server.baseUrl}/organizations/default/issues?project=${checkoutProjectId}`);
      const found = page.getByTestId("issue-row").filter({ hasText: ISSUE_MESSAGE });
      return (await found.count()) > 0 ? found.first() : undefined;
    });
    await Promise.all([page.waitForURL(/\/issues\/\d+$/), row.click()]);
    issueUrl = page.url();
    const resolve = page.getByRole("button", { name: "Resolve", exact: true });
    assert.equal(await resolve.isDisabled(), true);
    assert.equal(await page.getByTestId("read-only-note").innerText(), "Your role can view issues but not change them.");

    // Sent anyway (the disabled attribute is only a hint): the server action refuses.
    await page.waitForLoadState("networkidle");
    await resolve.evaluate((button) => {
      button.removeAttribute("disabled");
      button.removeAttribute("aria-disabled");
    });
    await resolve.click();
    const refusal = page.getByTestId("status-actions").getByRole("alert");
    await refusal.waitFor();
    assert.equal(
      await refusal.innerText(),
      "You do not have permission to perform this action: it needs the event:write scope, which the viewer role does not grant",
    );
    await page.reload();
    assert.equal(await page.getByTestId("issue-status").innerText(), "New");

    // The owner can, on the same issue.
    await owner.page.goto(issueUrl);
    await owner.page.getByRole("button", { name: "Resolve", exact: true }).click();
    await owner.page.getByTestId("issue-status").filter({ hasText: /^Resolved$/ }).waitFor();

    await owner.page.goto(`${server.baseUrl}/settings/default/audit-log`);
    const log = await owner.page.getByTestId("audit-log").innerText();
    assert.match(log, /victor@periscope\.test\s+member\.accept_invite/);
    assert.match(log, /olive@periscope\.test\s+member\.invite/);
    assert.match(log, /olive@periscope\.test\s+project\.create/);
  });

  test("repeated wrong passwords throttle this address for the account with a clear message", { timeout: 60_000 }, async () => {
    const { context, page } = await openContext();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.goto(`${server.baseUrl}/login`);
      await page.getByLabel("Email").fill(VIEWER.email);
      await page.getByLabel("Password").fill(`wrong-${attempt}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "The email address or password is not correct." }).waitFor();
    }
    // Throttled now: even the right password is refused, and the wait is named.
    await page.getByLabel("Email").fill(VIEWER.email);
    await page.getByLabel("Password").fill(VIEWER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // (Next's route announcer is an empty role=alert too.)
    const alert = page.getByRole("alert").filter({ hasText: "Too many failed login attempts" });
    await alert.waitFor();
    assert.equal(await alert.innerText(), "Too many failed login attempts. Try again in 15 minutes.");
    assert.equal(new URL(page.url()).pathname, "/login");

    const json = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: VIEWER.email, password: VIEWER.password }),
    });
    assert.equal(json.status, 429);
    const retryAfter = Number(json.headers.get("retry-after"));
    assert.ok(retryAfter > 840 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.equal(((await json.json()) as { detail: string }).detail, "Too many failed login attempts for this account from your network address. Try again in 15 minutes.");
    await context.close();
  });

  test("login refuses cross-origin posts and foreign next targets", { timeout: 30_000 }, async () => {
    const crossSite = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: new URLSearchParams({ email: OWNER.email, password: OWNER.password }),
      redirect: "manual",
    });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.headers.getSetCookie().length, 0);

    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const response = await fetch(`${server.baseUrl}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(server.baseUrl).origin },
        body: new URLSearchParams({ email: OWNER.email, password: OWNER.password, next }),
        redirect: "manual",
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get("location"), "/organizations/default", `next=${next}`);
    }
    const wrong = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: OWNER.email, password: "not-the-password" }),
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(await wrong.json(), { detail: "The email address or password is not correct." });
  });

  test("logging out ends the session, and pages send the browser to sign in again", { timeout: 60_000 }, async () => {
    const { context, page } = owner;
    const before = (await context.cookies()).find((cookie) => cookie.name === "periscope_session");
    assert.ok(before?.httpOnly, "the session cookie is HttpOnly");
    assert.equal(before.sameSite, "Lax");
    await page.goto(`${server.baseUrl}/organizations/default/issues`);
    await page.getByTestId("user-menu").click();
    await Promise.all([page.waitForURL(/\/login\?loggedOut=1$/), page.getByRole("button", { name: "Sign out" }).click()]);
    await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
    assert.equal((await context.cookies()).filter((cookie) => cookie.name === "periscope_session").length, 0);

    await page.goto(`${server.baseUrl}/settings/default/members`);
    assert.equal(page.url(), `${server.baseUrl}/login?next=${encodeURIComponent("/settings/default/members")}`);
    // The old cookie is dead on the server too, not only forgotten by the browser.
    const replay = await fetch(`${server.baseUrl}/organizations/default/issues`, { headers: { cookie: `periscope_session=${before.value}` }, redirect: "manual" });
    assert.equal(replay.status, 307);
    assert.match(replay.headers.get("location") ?? "", /^\/login\?next=/);

    await loginInBrowser(page, server.baseUrl, OWNER.email, OWNER.password, "/settings/default/members");
    assert.equal(new URL(page.url()).pathname, "/settings/default/members");
  });

  test("pages carry the security headers and render without CSP violations while self-monitoring posts to /monitoring", { timeout: 60_000 }, async () => {
    for (const path of ["/login", "/organizations/default/issues"]) {
      const response = await owner.page.goto(`${server.baseUrl}${path}`);
      const headers = response!.headers();
      assert.match(headers["content-security-policy"] ?? "", /frame-ancestors 'none'/);
      assert.match(headers["content-security-policy"] ?? "", /connect-src 'self'(;|$)/);
      assert.doesNotMatch(headers["content-security-policy"] ?? "", /unsafe-eval/);
      assert.equal(headers["x-frame-options"], "DENY");
      assert.equal(headers["x-content-type-options"], "nosniff");
      assert.equal(headers["referrer-policy"], "strict-origin-when-cross-origin");
    }
    await eventually("a POST to /monitoring", async () => (monitoringPosts.some((post) => post.status === 200) ? true : undefined));
    assert.deepEqual(
      [...new Set(monitoringPosts.map((post) => new URL(post.url).origin))],
      [new URL(server.baseUrl).origin],
      "self-monitoring talks to its own origin only",
    );
    assert.deepEqual(violations, []);
  });
  test("promoted to member, the same person can change the issue; a member cannot open the audit log", { timeout: 60_000 }, async () => {
    await owner.page.goto(`${server.baseUrl}/settings/default/members`);
    const row = owner.page.getByTestId("member-row").filter({ hasText: VIEWER.email });
    await row.getByLabel(`Role of ${VIEWER.email}`).selectOption("member");
    await row.getByRole("button", { name: "Change" }).click();
    await row.getByRole("status").filter({ hasText: "Role changed to member." }).waitFor();

    const { page } = viewer;
    await page.goto(issueUrl);
    assert.equal(await page.getByTestId("issue-status").innerText(), "Resolved");
    assert.equal(await page.getByTestId("read-only-note").count(), 0);
    await page.getByRole("button", { name: "Unresolve", exact: true }).click();
    await page.getByTestId("issue-status").filter({ hasText: /^(Unresolved|New|Regressed)$/ }).waitFor();
    const audit = await page.goto(`${server.baseUrl}/settings/default/audit-log`);
    assert.equal(audit?.status(), 404);
  });

  test("account settings: an API token is shown once and revoked; a password change; log out everywhere", { timeout: 60_000 }, async () => {
    const { page, context } = owner;
    await page.goto(`${server.baseUrl}/settings/account`);
    const create = page.getByTestId("create-token");
    await create.getByLabel("Name").fill("release script");
    await create.getByLabel("project:releases").check();
    await create.getByRole("button", { name: "Create token" }).click();
    const token = await create.getByTestId("one-time-secret").innerText();
    assert.match(token, /^\S{20,}$/);
    const listed = page.getByTestId("token-list").getByRole("listitem");
    await listed.filter({ hasText: "release script" }).waitFor();
    const row = await listed.filter({ hasText: "release script" }).innerText();
    assert.ok(row.includes(`…${token.slice(-4)}`), row);
    assert.match(row, /^org:read project:read project:releases event:read$/m);
    assert.match(row, /Last used never/);
    assert.equal((await page.content()).includes(token), true, "still on screen right after creation");
    await page.reload();
    assert.equal((await page.content()).includes(token), false, "never shown again");
    await listed.filter({ hasText: "release script" }).getByRole("button", { name: "Revoke" }).click();
    await listed.filter({ hasText: "release script" }).waitFor({ state: "detached" });

    // A wrong current password is refused with the reason; the right one works and keeps this session.
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password", { exact: true }).fill("owner-password-2");
    await page.getByLabel("Repeat the new password").fill("owner-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "the current password is not correct" }).waitFor();
    await page.getByLabel("Current password").fill(OWNER.password);
    await page.getByLabel("New password", { exact: true }).fill("owner-password-2");
    await page.getByLabel("Repeat the new password").fill("owner-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Password changed. Your other sessions have been signed out." }).waitFor();
    const old = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    });
    assert.equal(old.status, 401, "the old password no longer signs in");

    const session = (await context.cookies()).find((cookie) => cookie.name === "periscope_session")!.value;
    await Promise.all([page.waitForURL(/\/login\?loggedOut=everywhere$/), page.getByRole("button", { name: "Log out everywhere" }).click()]);
    await page.getByRole("status").filter({ hasText: "You are signed out on every device." }).waitFor();
    const replay = await fetch(`${server.baseUrl}/settings/account`, { headers: { cookie: `periscope_session=${session}` }, redirect: "manual" });
    assert.equal(replay.status, 307);
    assert.equal(replay.headers.get("location"), `/login?next=${encodeURIComponent("/settings/account")}`);
  });
});

describe("session expiry", () => {
  test("a session ends at SESSION_TTL_SECONDS: its pages then send the browser to sign in", { timeout: 90_000 }, async () => {
    const short = await startServerWithoutOwner({ SESSION_TTL_SECONDS: "2" });
    try {
      const setup = await fetch(`${short.baseUrl}/auth/setup`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: OWNER.email, name: OWNER.name, password: OWNER.password, token: short.setupToken }),
      });
      assert.equal(setup.status, 200);
      assert.equal(((await setup.json()) as { organization: string }).organization, "default");
      const setCookies = setup.headers.getSetCookie();
      assert.ok(setCookies.some((value) => /^periscope_session=[0-9a-f]{64}; Path=\/; Max-Age=2; SameSite=Lax; HttpOnly$/.test(value)), setCookies.join("\n"));
      const cookie = setCookies.map((value) => value.split(";")[0]).join("; ");

      const fresh = await fetch(`${short.baseUrl}/organizations/default/issues`, { headers: { cookie }, redirect: "manual" });
      assert.equal(fresh.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const expired = await fetch(`${short.baseUrl}/organizations/default/issues`, { headers: { cookie }, redirect: "manual" });
      assert.equal(expired.status, 307);
      assert.equal(expired.headers.get("location"), `/login?next=${encodeURIComponent("/organizations/default/issues")}`);
    } finally {
      await short.stop();
    }
  });
});
