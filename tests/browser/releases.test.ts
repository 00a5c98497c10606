/**
 * Releases and source maps in the UI, in Chromium against a real Periscope: releases, deploys and an
 * artifact bundle made by the real sentry-cli, commits and an older release file through the API,
 * an event with the release. Then the sidebar, the releases list (columns, sort, empty state), the
 * release page, and Settings → Source maps (listing, the test-a-URL answers, deletion) — where a
 * viewer has no delete control and the server refuses the delete when the role no longer allows it.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { build } from "esbuild";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { join, newUser, TEST_PASSWORD } from "../helpers/accounts";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { eventually } from "../helpers/monitoring";
import { startServer, type TestServer } from "../helpers/server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");
const SENTRY_CLI = path.join(root, "node_modules", ".bin", "sentry-cli");
const VERSION = "shop@1.4.0";
/** Made after VERSION and never finalized: first by creation date, last by finalization. */
const CANDIDATE = "shop@1.5.0-rc.1";
const COMMIT = "4f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39";
const ISSUE_MESSAGE = "Cart total went negative in 1.4.0";
const MEMBER_EMAIL = "mona@periscope.test";

describe("releases and source maps in the UI", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;
  let projectSlug: string;
  let debugId: string;
  let member: { context: BrowserContext; page: Page } | null = null;

  const org = () => server.organizationSlug;
  const releasesUrl = () => `${server.baseUrl}/organizations/${org()}/releases?project=${server.projectId}`;
  const sourceMapsUrl = () => `${server.baseUrl}/settings/${org()}/projects/${projectSlug}/source-maps`;

  const cli = async (args: string[]) => {
    const { stdout } = await run(SENTRY_CLI, args, {
      cwd: work,
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        HOME: work,
        SENTRY_URL: server.baseUrl,
        SENTRY_AUTH_TOKEN: server.ownerToken,
        SENTRY_ORG: org(),
        SENTRY_PROJECT: projectSlug,
        SENTRY_LOAD_DOTENV: "0",
        SENTRY_LOG_LEVEL: "warn",
      },
      timeout: 60_000,
      encoding: "utf8",
    });
    return stdout;
  };
  const api = async (apiPath: string, init: RequestInit = {}) => {
    const response = await server.api(apiPath, init);
    const text = await response.text();
    assert.ok(response.ok, `${init.method ?? "GET"} ${apiPath}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "periscope-releases-ui-"));
    server = await startServer(ADMIN_ENV);
    const projects = (await api(`/api/0/organizations/${org()}/projects/`)) as { id: string; slug: string }[];
    projectSlug = projects.find((project) => project.id === server.projectId)!.slug;

    // Releases and deploys with the real sentry-cli; commits through the API (Sentry's body).
    await cli(["releases", "new", VERSION]);
    await api(`/api/0/organizations/${org()}/releases/${encodeURIComponent(VERSION)}/`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ commits: [{ id: COMMIT, repository: "acme/shop", message: "Round cart totals before discounts\n\nDetails.", author_name: "Ada Lovelace" }] }),
    });
    await cli(["releases", "finalize", VERSION]);
    await cli(["deploys", "new", "--release", VERSION, "-e", "production", "-n", "blue"]);
    await cli(["releases", "new", CANDIDATE]);

    // An esbuild bundle with debug ids, uploaded as an artifact bundle for the release.
    const dist = path.join(work, "dist");
    await build({
      entryPoints: [path.join(root, "tests/fixtures/sourcemap-app/app.ts")],
      bundle: true, minify: true, sourcemap: true, format: "iife", outfile: path.join(dist, "app.min.js"), logLevel: "silent",
    });
    await cli(["sourcemaps", "inject", dist]);
    debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(path.join(dist, "app.min.js"), "utf8"))?.[1] ?? "";
    assert.ok(debugId, "sentry-cli injected a debug id");
    await cli(["sourcemaps", "upload", "--release", VERSION, dist]);

    // The older upload: one release file, no debug id.
    const form = new FormData();
    form.append("file", new Blob(["function legacy(){}\n//# sourceMappingURL=legacy.min.js.map\n"]), "legacy.min.js");
    form.append("name", "~/static/legacy.min.js");
    await api(`/api/0/projects/${org()}/${projectSlug}/releases/${encodeURIComponent(VERSION)}/files/`, { method: "POST", body: form });

    // An error event of the release: the issue is first seen in it.
    const dsn = new URL(server.dsn);
    const eventId = randomBytes(16).toString("hex");
    const event = { event_id: eventId, release: VERSION, environment: "production", platform: "javascript", exception: { values: [{ type: "TypeError", value: ISSUE_MESSAGE }] } };
    const envelope = `${JSON.stringify({ event_id: eventId })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
    const sent = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${dsn.username}`, { method: "POST", body: envelope });
    assert.equal(sent.status, 200);
    await eventually("the event's issue", async () => {
      const issues = (await api(`/api/0/projects/${org()}/${projectSlug}/issues/`)) as { title: string }[];
      return issues.some((issue) => issue.title.includes(ISSUE_MESSAGE)) ? true : undefined;
    });

    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginInBrowser(page, server.baseUrl);
  });

  after(async () => {
    await member?.context.close();
    await browser?.close();
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("the sidebar lists the sections and marks the current one", { timeout: 60_000 }, async () => {
    await page.goto(`${server.baseUrl}/organizations/${org()}/issues?project=${server.projectId}`);
    const sidebar = page.getByRole("navigation", { name: "Main" });
    assert.deepEqual(await sidebar.getByRole("link").allInnerTexts(), ["Dashboard", "Issues", "Releases", "Crons", "Feedback", "Stats", "Projects", "Settings"]);
    assert.equal(await sidebar.getByRole("link", { name: "Issues" }).getAttribute("aria-current"), "page");
    assert.equal(await sidebar.getByRole("link", { name: "Releases" }).getAttribute("aria-current"), null);
    // The project chosen in the header carries over to the section.
    assert.equal(await sidebar.getByRole("link", { name: "Releases" }).getAttribute("href"), `/organizations/${org()}/releases?project=${server.projectId}`);
    await Promise.all([page.waitForURL(/\/releases\?project=/), sidebar.getByRole("link", { name: "Releases" }).click()]);
    assert.equal(await sidebar.getByRole("link", { name: "Releases" }).getAttribute("aria-current"), "page");
    assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Releases");
    // On a narrow screen the same navigation is a row above the page, not hidden.
    await page.setViewportSize({ width: 420, height: 800 });
    assert.equal(await sidebar.getByRole("link", { name: "Settings" }).isVisible(), true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("the releases list shows version, created, finalized, last deploy and new issues, and sorts", { timeout: 60_000 }, async () => {
    await page.goto(releasesUrl());
    const rows = page.getByTestId("release-row");
    // Newest first by default: the later `releases new` comes first.
    assert.deepEqual(await page.getByTestId("release-version").allInnerTexts(), [CANDIDATE, VERSION]);
    const current = rows.filter({ hasText: VERSION });
    assert.match(await current.getByTestId("release-finalized").innerText(), /^(just now|\d+min ago)$/);
    assert.match(await current.getByTestId("release-last-deploy").innerText(), /^production\s+(just now|\d+min ago)$/);
    assert.equal(await current.getByTestId("release-new-issues").innerText(), "1");
    const older = rows.filter({ hasText: CANDIDATE });
    assert.equal(await older.getByTestId("release-finalized").innerText(), "Unreleased");
    assert.equal(await older.getByTestId("release-last-deploy").innerText(), "—");
    assert.equal(await older.getByTestId("release-new-issues").innerText(), "0");

    assert.equal(await page.locator("th[aria-sort=descending]").innerText(), "CREATED ↓", "the sorted column says so (upper case by CSS)");
    // By finalization (a column header link), the unreleased one goes last.
    await Promise.all([page.waitForURL(/sort=released/), page.getByRole("link", { name: "Finalized" }).click()]);
    assert.deepEqual(await page.getByTestId("release-version").allInnerTexts(), [VERSION, CANDIDATE]);
    assert.equal(await page.locator("th[aria-sort=descending]").innerText(), "FINALIZED ↓");
    await page.goto(`${releasesUrl()}&sort=new_issues`);
    assert.deepEqual(await page.getByTestId("release-version").allInnerTexts(), [VERSION, CANDIDATE]);
    // A search narrows to matching versions; no match says so.
    await page.goto(`${releasesUrl()}&query=rc`);
    assert.deepEqual(await page.getByTestId("release-version").allInnerTexts(), [CANDIDATE]);
    await page.goto(`${releasesUrl()}&query=nothing-like-this`);
    await page.getByRole("heading", { name: "No releases match" }).waitFor();
  });

  test("a project without releases explains sentry-cli with this server's URL, organisation and project", { timeout: 60_000 }, async () => {
    const created = (await api(`/api/0/teams/${org()}/default/projects/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Empty web", slug: "empty-web" }),
    })) as { id: string };
    await page.goto(`${server.baseUrl}/organizations/${org()}/releases?project=${created.id}`);
    const guide = page.getByTestId("sentry-cli-guide");
    await guide.waitFor();
    const script = await guide.locator("pre").innerText();
    assert.match(script, new RegExp(`^export SENTRY_URL=${server.baseUrl.replace(/[.]/g, "\\.")}$`, "m"));
    assert.match(script, /^export SENTRY_AUTH_TOKEN=/m);
    assert.match(script, new RegExp(`^export SENTRY_ORG=${org()}$`, "m"));
    assert.match(script, /^export SENTRY_PROJECT=empty-web$/m);
    assert.match(script, /sentry-cli sourcemaps upload --release/);
    assert.equal(await page.getByTestId("release-row").count(), 0);
  });

  test("the release page shows figures, the issue first seen in it, deploys, commits and artifacts", { timeout: 60_000 }, async () => {
    await page.goto(releasesUrl());
    await Promise.all([page.waitForURL(/\/releases\/shop%401\.4\.0\?project=/), page.getByRole("link", { name: VERSION }).click()]);
    assert.equal(await page.getByTestId("release-title").innerText(), VERSION);
    assert.equal(await page.getByTestId("figure-new-issues").innerText(), "1");
    assert.equal(await page.getByTestId("figure-commits").innerText(), "1");
    assert.equal(await page.getByTestId("figure-deploys").innerText(), "1");
    assert.match(await page.getByTestId("release-facts").innerText(), new RegExp(`Projects\\s+${projectSlug}`));

    const deploy = await page.getByTestId("deploy").innerText();
    assert.match(deploy, /^production\s+blue/);
    const commit = await page.getByTestId("commit").innerText();
    assert.match(commit, /^Round cart totals before discounts\n/);
    assert.match(commit, new RegExp(`${COMMIT.slice(0, 12)}\\s+acme/shop\\s+Ada Lovelace`));

    const bundle = page.getByTestId("bundle");
    assert.equal(await bundle.count(), 1);
    assert.match(await bundle.innerText(), new RegExp(`Release ${VERSION.replace(".", "\\.")}`));
    const files = await bundle.getByTestId("bundle-file").allInnerTexts();
    assert.deepEqual(files.map((row) => row.split(/\s+/).slice(0, 3).join(" ")).sort(), [`~/app.min.js minified ${debugId}`, `~/app.min.js.map source map`]);
    assert.match(files.find((row) => row.includes(".map"))!, new RegExp(`source map\\s+${debugId}\\s+\\d+(\\.\\d)? KiB`));
    assert.match(await page.getByTestId("release-file").innerText(), /^~\/static\/legacy\.min\.js\s+minified\s+—\s+\d+ B\s+just now/);

    const issue = page.locator("#issues").getByTestId("issue-row");
    assert.equal(await issue.count(), 1);
    assert.match(await issue.innerText(), new RegExp(ISSUE_MESSAGE));
    await Promise.all([page.waitForURL(/\/issues\/\d+$/), issue.click()]);
    assert.equal(await page.getByTestId("issue-title").innerText(), `TypeError: ${ISSUE_MESSAGE}`);

    // The candidate has nothing yet, and says how to add it; unknown versions are 404s.
    await page.goto(`${server.baseUrl}/organizations/${org()}/releases/${encodeURIComponent(CANDIDATE)}`);
    await page.getByRole("heading", { name: "No deploys" }).waitFor();
    await page.getByRole("heading", { name: "No source maps for this release" }).waitFor();
    const missing = await page.goto(`${server.baseUrl}/organizations/${org()}/releases/no-such-version`);
    assert.equal(missing?.status(), 404);
  });

  test("Settings → Source maps lists bundles and release files and answers test-a-URL lookups", { timeout: 60_000 }, async () => {
    await page.goto(`${server.baseUrl}/settings/${org()}/projects/${projectSlug}/keys`);
    await Promise.all([page.waitForURL(/\/source-maps$/), page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Source maps" }).click()]);
    assert.deepEqual((await page.getByTestId("bundle-id").allInnerTexts()).length, 1);
    assert.ok((await page.getByTestId("debug-id").allInnerTexts()).includes(debugId));
    assert.match(await page.getByTestId("release-file").innerText(), new RegExp(`^${VERSION.replace(".", "\\.")}\\s+~/static/legacy\\.min\\.js`));

    const lookup = async (fields: { url: string; release?: string; debugId?: string }) => {
      await page.getByLabel("URL of the minified file").fill(fields.url);
      await page.getByLabel("Release (optional)").fill(fields.release ?? "");
      await page.getByLabel("Debug id (optional)").fill(fields.debugId ?? "");
      const sent = (url: URL) => url.searchParams.get("url") === fields.url && url.searchParams.get("release") === (fields.release ?? "") && url.searchParams.get("debugId") === (fields.debugId ?? "");
      await Promise.all([page.waitForURL(sent), page.getByRole("button", { name: "Find the source map" }).click()]);
      return page.getByTestId("url-test-result");
    };
    // By debug id, whatever the host.
    let answer = await lookup({ url: "https://shop.example/assets/app.min.js", debugId: debugId.toUpperCase() });
    assert.equal(await answer.getAttribute("data-found"), "true");
    assert.equal(await answer.getByTestId("url-test-map").innerText(), "~/app.min.js.map");
    assert.match(await answer.innerText(), /found by its debug id \(\d+(\.\d)? KiB\)/);
    // By release and URL ("~/" matches any host), following the file's sourceMappingURL.
    answer = await lookup({ url: "https://shop.example/app.min.js?v=3", release: VERSION });
    assert.equal(await answer.getAttribute("data-found"), "true");
    assert.match(await answer.innerText(), /~\/app\.min\.js\.map, found by release and URL, in an artifact bundle/);
    assert.match(await answer.innerText(), /URLs looked up: https:\/\/shop\.example\/app\.min\.js\?v=3, https:\/\/shop\.example\/app\.min\.js, ~\/app\.min\.js\?v=3, ~\/app\.min\.js/);
    // Not found: each answer says why, with what was looked for.
    answer = await lookup({ url: "https://shop.example/other.min.js", release: VERSION });
    assert.equal(await answer.getAttribute("data-found"), "false");
    assert.match(await answer.getByTestId("url-test-reason").innerText(), /^release shop@1\.4\.0 has no artifact for this URL \(tried https:\/\/shop\.example\/other\.min\.js, ~\/other\.min\.js\)$/);
    answer = await lookup({ url: "https://shop.example/static/legacy.min.js", release: VERSION });
    assert.match(await answer.getByTestId("url-test-reason").innerText(), /^bundle found but no map for this file: ~\/static\/legacy\.min\.js names legacy\.min\.js\.map, and release shop@1\.4\.0 has no artifact at ~\/static\/legacy\.min\.js\.map$/);
    answer = await lookup({ url: "https://shop.example/app.min.js", debugId: "00000000-1111-4222-8333-444444444444" });
    assert.match(await answer.getByTestId("url-test-reason").innerText(), /^no bundle with debug id 00000000-1111-4222-8333-444444444444$/);
    // Bad input is answered in words, not with an error page.
    answer = await lookup({ url: "https://shop.example/app.min.js", debugId: "not-a-uuid" });
    assert.equal(await answer.getAttribute("role"), "alert");
    assert.match(await answer.innerText(), /^debugId: must be a UUID/);
  });

  test("a viewer has no delete control, and the server refuses a delete the role no longer allows", { timeout: 90_000 }, async () => {
    const memberId = await server.withStorage(async (storage) => {
      const user = await newUser(storage, MEMBER_EMAIL);
      await join(storage, org(), user, "viewer", ["default"]);
      return (await storage.accounts.members.get("1", user.id))!.id;
    });
    const setRole = (role: "viewer" | "member") => server.withStorage(async (storage) => void (await storage.accounts.members.setRole(memberId, role)));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    member = { context, page: await context.newPage() };
    const memberPage = member.page;
    await loginInBrowser(memberPage, server.baseUrl, MEMBER_EMAIL, TEST_PASSWORD);

    await memberPage.goto(sourceMapsUrl());
    assert.equal(await memberPage.getByTestId("bundle").count(), 1, "a viewer sees the bundles");
    assert.equal(await memberPage.getByRole("button", { name: /^Delete/ }).count(), 0, "but no delete control");
    assert.equal(await memberPage.getByTestId("read-only-note").innerText(), "Your role can view source maps but not delete them.");

    // A member (project:releases) gets the control; demoted while the page is open, the click is refused.
    await setRole("member");
    await memberPage.reload();
    const remove = memberPage.getByRole("button", { name: "Delete bundle" });
    await remove.waitFor();
    await memberPage.waitForLoadState("networkidle");
    await setRole("viewer");
    await remove.click();
    const refusal = memberPage.getByTestId("delete-bundle").getByRole("alert");
    await refusal.waitFor();
    assert.equal(
      await refusal.innerText(),
      "You do not have permission to perform this action: it needs the project:releases or project:write scope, which the viewer role does not grant",
    );
    const stored = await server.withStorage((storage) => storage.artifacts.listBundles(server.projectId));
    assert.equal(stored.length, 1, "nothing was deleted");
  });

  test("deleting the bundle and the release file removes them, and the lookup then says why", { timeout: 60_000 }, async () => {
    await page.goto(sourceMapsUrl());
    await page.getByRole("button", { name: "Delete bundle" }).click();
    await page.getByRole("heading", { name: "No artifact bundles" }).waitFor();
    await page.getByTestId("release-file").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "No release files" }).waitFor();
    assert.deepEqual(await server.withStorage((storage) => storage.artifacts.listBundles(server.projectId)), []);
    assert.deepEqual(await server.withStorage((storage) => storage.artifacts.listReleaseFiles(server.projectId)), []);

    await page.goto(`${sourceMapsUrl()}?url=${encodeURIComponent("https://shop.example/app.min.js")}&debugId=${debugId}&release=${encodeURIComponent(VERSION)}`);
    assert.equal(await page.getByTestId("url-test-reason").innerText(), `no bundle with debug id ${debugId}`);
    const audit = await server.withStorage((storage) => storage.accounts.audit.list("1", 10));
    assert.deepEqual(audit.slice(0, 2).map((entry) => entry.event).sort(), ["artifact-bundle.remove", "release-file.remove"]);
  });
});
