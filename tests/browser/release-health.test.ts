/**
 * Release health end to end (issue 37). Real SDKs: `@sentry/node` in separate processes with
 * releases 1.0.0 and 1.0.1 (some exit cleanly, one captures a handled error, some die of an uncaught
 * exception → `crashed`), and `@sentry/browser` in Chromium (an uncaught error → `unhandled`). The
 * crash-free rates, totals and adoption that the releases API (`health=1`), the releases list, the
 * release page and the dashboard show must equal what this test computes from what it sent.
 *
 * SQLite: API and pages. PostgreSQL: two server processes on one database, the SDK processes split
 * between them, and one session's updates sent out of order and duplicated across both — API figures.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../helpers/chromium";
import { buildBundle } from "../helpers/js-builds";
import { eventually } from "../helpers/monitoring";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { loginInBrowser } from "../helpers/browser-login";
import { OWNER_EMAIL, OWNER_PASSWORD, startServer, type TestServer } from "../helpers/server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");

type Mode = "clean" | "error" | "crash";
/** What each Node process does: [release, user id, mode]. */
const PLAN: [string, string, Mode][] = [
  ["1.0.0", "a", "clean"],
  ["1.0.0", "a", "clean"],
  ["1.0.0", "b", "clean"],
  ["1.0.0", "b", "crash"],
  ["1.0.1", "c", "clean"],
  ["1.0.1", "c", "error"],
  ["1.0.1", "d", "crash"],
  ["1.0.1", "e", "crash"],
];
const WEB_RELEASE = "web@1.0.1";

/** The Node program each process runs: the SDK's defaults (process session, uncaught-exception handler). */
const NODE_APP = `
const Sentry = require("@sentry/node");
const [dsn, release, user, mode] = process.argv.slice(2);
Sentry.init({
  dsn, release, environment: "production", initialScope: { user: { id: user } },
  // crash-quietly: the crash without a session (a regression that leaves the health figures alone).
  integrations: (defaults) => defaults.filter((integration) => mode !== "crash-quietly" || integration.name !== "ProcessSession"),
});
if (mode === "error") Sentry.captureException(new Error("handled in " + release));
if (mode === "crash" || mode === "crash-quietly") setTimeout(() => { throw new Error("uncaught in " + release); }, 10);
`;

interface Expected {
  sessions: number;
  users: number;
  crashed: number;
  errored: number;
  crashFreeSessions: number;
  crashFreeUsers: number;
}

/** The figures of one release, worked out from the plan alone. */
function expectedOf(plan: [string, string, Mode][], release: string): Expected {
  const mine = plan.filter(([version]) => version === release);
  const crashedUsers = new Set(mine.filter(([, , mode]) => mode === "crash").map(([, user]) => user));
  const users = new Set(mine.map(([, user]) => user));
  const crashed = mine.filter(([, , mode]) => mode === "crash").length;
  return {
    sessions: mine.length,
    users: users.size,
    crashed,
    errored: mine.filter(([, , mode]) => mode === "error").length,
    crashFreeSessions: ((mine.length - crashed) / mine.length) * 100,
    crashFreeUsers: ((users.size - crashedUsers.size) / users.size) * 100,
  };
}

const allUsers = new Set(PLAN.map(([, user]) => user)).size;
/** As the UI writes a rate: at most two decimals. */
const shown = (value: number) => `${Math.round(value * 100) / 100}%`;
const close = (actual: unknown, expected: number, what: string) =>
  assert.ok(typeof actual === "number" && Math.abs(actual - expected) < 1e-9, `${what}: ${String(actual)} ≠ ${expected}`);

interface HealthData {
  crashFreeSessions: number | null;
  crashFreeUsers: number | null;
  totalSessions: number;
  totalUsers: number;
  sessionsCrashed: number;
  sessionsErrored: number;
  totalSessions24h: number;
  totalProjectSessions24h: number;
  totalUsers24h: number;
  totalProjectUsers24h: number;
  adoption: number | null;
  sessionsAdoption: number | null;
  durationP50: number | null;
  durationP90: number | null;
  hasHealthData: boolean;
}
interface ReleaseJson {
  version: string;
  projects: { slug: string; healthData?: HealthData }[];
}

async function runNodeApps(dsns: string[], work: string): Promise<void> {
  const file = path.join(work, "node-app.cjs");
  writeFileSync(file, NODE_APP);
  // Two at a time: a shared machine. A crash exits non-zero, as it should.
  for (let index = 0; index < PLAN.length; index += 2) {
    await Promise.all(
      PLAN.slice(index, index + 2).map(async ([release, user, mode], offset) => {
        const dsn = dsns[(index + offset) % dsns.length]!;
        const outcome = await run(process.execPath, [file, dsn, release, user, mode], {
          env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", NODE_PATH: path.join(root, "node_modules") },
          timeout: 60_000,
        }).then(() => 0, (error: { code?: number }) => error.code ?? -1);
        assert.equal(outcome, mode === "crash" ? 1 : 0, `${release} ${user} ${mode} exit code`);
      }),
    );
  }
}

async function api<T>(server: TestServer, apiPath: string): Promise<T> {
  const response = await server.api(apiPath);
  const text = await response.text();
  assert.equal(response.status, 200, `GET ${apiPath}: ${text}`);
  return JSON.parse(text) as T;
}

async function postJson(server: TestServer, apiPath: string, body: unknown): Promise<void> {
  const response = await server.api(apiPath, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  assert.ok(response.status === 201 || response.status === 208, `POST ${apiPath}: ${response.status} ${text}`);
}

async function healthOf(server: TestServer, version: string, projectSlug: string): Promise<HealthData> {
  const releases = await api<ReleaseJson[]>(server, "/api/0/organizations/default/releases/?health=1");
  const release = releases.find((candidate) => candidate.version === version);
  assert.ok(release, `release ${version} listed`);
  const health = release.projects.find((project) => project.slug === projectSlug)?.healthData;
  assert.ok(health, `healthData of ${version} in ${projectSlug}`);
  return health;
}

/** Waits until every planned session is counted with its end (the last processes' updates may still be committing). */
async function waitForNodeSessions(server: TestServer, projectSlug: string): Promise<void> {
  await eventually("all Node sessions counted", async () => {
    for (const version of ["1.0.0", "1.0.1"]) {
      const health = await healthOf(server, version, projectSlug);
      const expected = expectedOf(PLAN, version);
      if (health.totalSessions !== expected.sessions || health.sessionsCrashed !== expected.crashed || health.sessionsErrored !== expected.errored) return undefined;
    }
    return true;
  });
}

function assertNodeHealth(version: string, health: HealthData): void {
  const expected = expectedOf(PLAN, version);
  assert.equal(health.totalSessions, expected.sessions, `${version} sessions`);
  assert.equal(health.totalUsers, expected.users, `${version} users`);
  assert.equal(health.sessionsCrashed, expected.crashed, `${version} crashed`);
  assert.equal(health.sessionsErrored, expected.errored, `${version} errored`);
  close(health.crashFreeSessions, expected.crashFreeSessions, `${version} crash-free sessions`);
  close(health.crashFreeUsers, expected.crashFreeUsers, `${version} crash-free users`);
  assert.equal(health.totalSessions24h, expected.sessions);
  assert.equal(health.totalProjectSessions24h, PLAN.length);
  assert.equal(health.totalProjectUsers24h, allUsers);
  close(health.sessionsAdoption, (100 * expected.sessions) / PLAN.length, `${version} sessions adoption`);
  close(health.adoption, (100 * expected.users) / allUsers, `${version} user adoption`);
  assert.equal(health.hasHealthData, true);
  // Node's process sessions that exit cleanly carry a duration; crashed ones are not timed.
  assert.ok(health.durationP50 !== null && health.durationP90 !== null && health.durationP50 >= 0 && health.durationP50 <= health.durationP90, `${version} durations`);
}

describe("release health on SQLite: SDKs in processes and Chromium, API and pages", { timeout: 300_000 }, () => {
  let server: TestServer;
  let work: string;
  let browser: Browser;
  let page: Page;
  let site: Server;
  let web: { id: string; slug: string; dsn: string };

  before(async () => {
    assert.ok(chromiumPath(), "Chromium is installed");
    work = mkdtempSync(path.join(tmpdir(), "periscope-release-health-"));
    server = await startServer();
    // Explicit releases, 1.0.0 first, so 1.0.1's page compares with it; a deploy of 1.0.1.
    await postJson(server, "/api/0/organizations/default/releases/", { version: "1.0.0", projects: ["default"] });
    await postJson(server, "/api/0/organizations/default/releases/", { version: "1.0.1", projects: ["default"] });
    await postJson(server, "/api/0/organizations/default/releases/1.0.1/deploys/", { environment: "production", name: "rollout" });
    const made = await server.api("/api/0/teams/default/default/projects/", { method: "POST", body: JSON.stringify({ name: "Web", platform: "javascript-browser" }) });
    assert.equal(made.status, 201);
    const project = (await made.json()) as { id: string; slug: string };
    const [key] = await api<{ dsn: { public: string } }[]>(server, `/api/0/projects/default/${project.slug}/keys/`);
    web = { ...project, dsn: key!.dsn.public };

    await runNodeApps([server.dsn], work);

    const app = await buildBundle({
      sources: {
        "main.ts": [
          'import * as Sentry from "@sentry/browser";',
          `Sentry.init({ dsn: ${JSON.stringify(web.dsn)}, release: ${JSON.stringify(WEB_RELEASE)}, environment: "production", initialScope: { user: { id: "w1" } } });`,
          'document.getElementById("crash")!.addEventListener("click", () => { throw new Error("uncaught in the browser"); });',
          "(window as { appReady?: boolean }).appReady = true;",
        ].join("\n"),
      },
      entry: "main.ts", outDir: work, platform: "browser", debugIds: false,
      esbuild: { target: "es2020", nodePaths: [path.join(root, "node_modules")] },
    });
    const html = '<!doctype html><html><head><script src="/app.js" defer></script></head><body><button id="crash">Crash</button></body></html>';
    site = createServer((request, response) => {
      if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(html);
      else if (request.url === "/app.js") response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(app.file));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: chromiumArgs });
    const visitor = await browser.newPage();
    // Visit 1: an uncaught error ends the session `unhandled`. Visit 2: a healthy session.
    await visitor.goto(siteUrl);
    await visitor.waitForFunction(() => (window as { appReady?: boolean }).appReady === true);
    const sent = visitor.waitForResponse((response) => response.url().includes(`/api/${web.id}/envelope/`) && response.request().postData()?.includes('"status":"unhandled"') === true);
    await visitor.click("#crash");
    assert.equal((await sent).status(), 200);
    await visitor.goto(siteUrl);
    await visitor.waitForFunction(() => (window as { appReady?: boolean }).appReady === true);
    await visitor.close();

    await waitForNodeSessions(server, "default");
    await eventually("both browser sessions counted", async () => ((await healthOf(server, WEB_RELEASE, web.slug)).totalSessions === 2 ? true : undefined));
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await loginInBrowser(page, server.baseUrl, OWNER_EMAIL, OWNER_PASSWORD);
  });

  after(async () => {
    await browser?.close();
    if (site) await new Promise((resolve) => site.close(resolve));
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("the releases API's healthData equals the figures computed from what the SDKs sent", async () => {
    assertNodeHealth("1.0.0", await healthOf(server, "1.0.0", "default"));
    assertNodeHealth("1.0.1", await healthOf(server, "1.0.1", "default"));
    // The browser: one unhandled and one healthy session of one user — unhandled counts against crash-free.
    const webHealth = await healthOf(server, WEB_RELEASE, web.slug);
    assert.equal(webHealth.totalSessions, 2);
    assert.equal(webHealth.sessionsCrashed, 1);
    close(webHealth.crashFreeSessions, 50, "browser crash-free sessions");
    close(webHealth.crashFreeUsers, 0, "browser crash-free users");
    close(webHealth.sessionsAdoption, 100, "browser adoption");
    assert.equal(webHealth.durationP50, null, "browser sessions send no duration");
    // Without health=1 there is none; a bad value is a 400 naming it.
    const plain = await api<ReleaseJson[]>(server, "/api/0/organizations/default/releases/");
    assert.equal(plain.find((release) => release.version === "1.0.0")?.projects[0]?.healthData, undefined);
    const bad = await server.api("/api/0/organizations/default/releases/?health=1&summaryStatsPeriod=5y");
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /summaryStatsPeriod/);
    // Sentry's series: 24 hourly buckets ending with the current hour (sessions), or 14 days of users.
    const withStats = await api<(ReleaseJson & { projects: { slug: string; healthData?: { stats: Record<string, [number, number][]> } }[] })[]>(
      server, "/api/0/organizations/default/releases/?health=1&healthStatsPeriod=24h",
    );
    const hourly = withStats.find((release) => release.version === "1.0.1")?.projects[0]?.healthData?.stats["24h"];
    assert.equal(hourly?.length, 24);
    assert.equal(hourly.reduce((sum, [, value]) => sum + value, 0), expectedOf(PLAN, "1.0.1").sessions);
    assert.equal(hourly[23]![0], Math.floor(Date.now() / 3_600_000) * 3600, "the last bucket is the current hour");
    const daily = (await api<typeof withStats>(server, "/api/0/organizations/default/releases/?health=1&healthStatsPeriod=14d&healthStat=users"))
      .find((release) => release.version === "1.0.1")?.projects[0]?.healthData?.stats["14d"];
    assert.equal(daily?.length, 14);
    assert.equal(daily.at(-1)![1], expectedOf(PLAN, "1.0.1").users);
    assert.equal((await server.api("/api/0/organizations/default/releases/?health=1&healthStatsPeriod=7d")).status, 400);
    // The single release route and another environment.
    const one = await api<ReleaseJson>(server, "/api/0/organizations/default/releases/1.0.0/?health=1");
    close(one.projects[0]?.healthData?.crashFreeSessions, expectedOf(PLAN, "1.0.0").crashFreeSessions, "release detail");
    const staging = await api<ReleaseJson[]>(server, "/api/0/organizations/default/releases/?health=1&environment=staging");
    assert.equal(staging.find((release) => release.version === "1.0.0")?.projects[0]?.healthData?.totalSessions, 0);
  });

  test("the releases list shows adoption and crash-free rates, and sorts by them", async () => {
    const url = `${server.baseUrl}/organizations/default/releases?project=${server.projectId}`;
    await page.goto(`${url}&sort=crash_free_sessions`);
    const rows = page.getByTestId("release-row");
    assert.deepEqual(await rows.getByTestId("release-version").allInnerTexts(), ["1.0.0", "1.0.1"], "the healthier release first");
    for (const [index, version] of ["1.0.0", "1.0.1"].entries()) {
      const expected = expectedOf(PLAN, version);
      const row = rows.nth(index);
      assert.equal(await row.getByTestId("release-crash-free-sessions").innerText(), shown(expected.crashFreeSessions));
      assert.equal(await row.getByTestId("release-crash-free-users").innerText(), shown(expected.crashFreeUsers));
      assert.equal(Number(await row.getByTestId("release-adoption").getAttribute("data-sessions")), (100 * expected.sessions) / PLAN.length);
      assert.equal(Number(await row.getByTestId("release-adoption").getAttribute("data-users")), (100 * expected.users) / allUsers);
    }
    assert.match(await rows.nth(1).getByTestId("release-last-deploy").innerText(), /production/);
    // Another environment: no sessions there.
    await page.goto(`${url}&environment=staging`);
    assert.equal(await page.getByTestId("release-crash-free-sessions").first().innerText(), "—");
    assert.equal(await page.getByTestId("time-range-picker").count(), 1);
  });

  test("the release page shows health, the comparison with the previous release, and deploys", async () => {
    await page.goto(`${server.baseUrl}/organizations/default/releases/1.0.1?project=${server.projectId}`);
    const now = expectedOf(PLAN, "1.0.1");
    const before = expectedOf(PLAN, "1.0.0");
    assert.equal(await page.getByTestId("health-crash-free-sessions").innerText(), shown(now.crashFreeSessions));
    assert.equal(await page.getByTestId("health-crash-free-users").innerText(), shown(now.crashFreeUsers));
    assert.equal(await page.getByTestId("health-crashed").innerText(), String(now.crashed));
    assert.equal(await page.getByTestId("health-errored").innerText(), String(now.errored));
    assert.equal(await page.getByTestId("previous-release").innerText(), "1.0.0");
    const points = Math.round((now.crashFreeSessions - before.crashFreeSessions) * 100) / 100;
    assert.match(await page.getByTestId("crash-free-delta").innerText(), new RegExp(`crash-free ${points} pp \\(was ${shown(before.crashFreeSessions).replace(".", "\\.")}\\)`));
    // The chart is drawn, its legend totals the sessions by health.
    await page.locator('#health [data-testid="chart"][data-drawn-series]').waitFor();
    const legend = await page.locator("#health").getByTestId("chart-legend-item").allInnerTexts();
    assert.ok(legend.some((item) => /Crashed\s*2/.test(item)), legend.join(" | "));
    assert.equal(await page.getByTestId("deploy").count(), 1);
    // First seen in 1.0.1: the handled error only — the crash groups with 1.0.0's (same stack).
    const firstSeen = await page.locator("#issues").innerText();
    assert.match(firstSeen, /handled in 1\.0\.1/);
    assert.doesNotMatch(firstSeen, /uncaught in/);
  });

  test("the dashboard is the landing page and shows errors and crash-free rate per project", async () => {
    await page.goto(server.baseUrl);
    await page.waitForURL(/\/organizations\/default$/);
    const nodeRow = page.locator('[data-testid="dashboard-project"][data-project="default"]');
    const crashes = PLAN.filter(([, , mode]) => mode === "crash").length;
    const errors = PLAN.filter(([, , mode]) => mode !== "clean").length;
    assert.equal(await nodeRow.getByTestId("dashboard-crash-free").innerText(), shown(((PLAN.length - crashes) / PLAN.length) * 100));
    assert.equal(await nodeRow.getByTestId("dashboard-errors").innerText(), String(errors));
    const webRow = page.locator(`[data-testid="dashboard-project"][data-project="${web.slug}"]`);
    assert.equal(await webRow.getByTestId("dashboard-crash-free").innerText(), "50%");
    const releases = await page.getByTestId("dashboard-release").allInnerTexts();
    for (const version of ["1.0.0", "1.0.1", WEB_RELEASE]) assert.ok(releases.some((row) => row.startsWith(version)), `${version} in progress: ${releases.join(" | ")}`);
    assert.ok((await page.getByTestId("dashboard-newest").innerText()).includes("uncaught in"));
    await page.locator('#errors [data-testid="chart"][data-drawn-series]').waitFor();
    const sidebar = page.getByRole("navigation", { name: "Main" });
    assert.equal(await sidebar.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current"), "page");
  });

  test("a resolved crash that comes back in 1.0.1 is a regression of the release and on the dashboard", async () => {
    const issues = await api<{ id: string; title: string }[]>(server, "/api/0/projects/default/default/issues/?query=");
    const crash = issues.find((issue) => issue.title.includes("uncaught in"));
    assert.ok(crash, issues.map((issue) => issue.title).join(", "));
    const resolved = await server.api(`/api/0/issues/${crash.id}/`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "resolved" }) });
    assert.equal(resolved.status, 200, await resolved.text());
    const file = path.join(work, "node-app.cjs");
    const exit = await run(process.execPath, [file, server.dsn, "1.0.1", "z", "crash-quietly"], {
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", NODE_PATH: path.join(root, "node_modules") }, timeout: 60_000,
    }).then(() => 0, (error: { code?: number }) => error.code ?? -1);
    assert.equal(exit, 1);
    await eventually("the regression", async () => {
      const issue = await api<{ status: string; substatus?: string }>(server, `/api/0/issues/${crash.id}/`);
      return issue.status === "unresolved" ? true : undefined;
    });
    await page.goto(`${server.baseUrl}/organizations/default/releases/1.0.1?project=${server.projectId}`);
    assert.match(await page.getByTestId("regressions").innerText(), /uncaught in/);
    await page.goto(`${server.baseUrl}/organizations/default/releases/1.0.0?project=${server.projectId}`);
    assert.equal(await page.getByTestId("regressions").count(), 0, "not a regression of 1.0.0");
    // The health figures did not move: the crash sent no session.
    assertNodeHealth("1.0.1", await healthOf(server, "1.0.1", "default"));
    await page.goto(`${server.baseUrl}/organizations/default`);
    assert.match(await page.getByTestId("dashboard-regressed").innerText(), /uncaught in/);
  });
});

if (await postgresForTests("release health on PostgreSQL")) {
  describe("release health on PostgreSQL, two server processes", { timeout: 300_000 }, () => {
    let schema: TestSchema;
    let a: TestServer;
    let b: TestServer;
    let work: string;

    before(async () => {
      schema = await freshSchema();
      [a, b] = await Promise.all([startServer({ DATABASE_URL: schema.url }), startServer({ DATABASE_URL: schema.url }, { bootstrapOwner: false })]);
      work = mkdtempSync(path.join(tmpdir(), "periscope-release-health-pg-"));
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await schema?.drop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    test("SDK processes split over both servers give the computed figures", async () => {
      await runNodeApps([a.dsn, b.dsn], work);
      await waitForNodeSessions(a, "default");
      assertNodeHealth("1.0.0", await healthOf(a, "1.0.0", "default"));
      assertNodeHealth("1.0.1", await healthOf(b, "1.0.1", "default"));
    });

    test("one session's updates out of order and duplicated across both servers count once", async () => {
      const made = await a.api("/api/0/teams/default/default/projects/", { method: "POST", body: JSON.stringify({ name: "Merge", platform: "node" }) });
      assert.equal(made.status, 201);
      const project = (await made.json()) as { id: string; slug: string };
      const [key] = await api<{ public: string }[]>(a, `/api/0/projects/default/${project.slug}/keys/`);
      const sid = randomUUID();
      const started = new Date().toISOString();
      const update = (seq: number, fields: Record<string, unknown>) => ({
        sid, did: "m1", seq, init: false, started, timestamp: new Date(Date.now() + seq).toISOString(), status: "ok", errors: 0,
        attrs: { release: "merge@1", environment: "production" }, ...fields,
      });
      const post = async (server: TestServer, body: Record<string, unknown>) => {
        const envelope = `${JSON.stringify({})}\n${JSON.stringify({ type: "session" })}\n${JSON.stringify(body)}\n`;
        const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/?sentry_key=${key!.public}&sentry_version=7`, { method: "POST", body: envelope });
        assert.equal(response.status, 200, await response.text());
      };
      // The end first, then the init twice (once per server), then the error in between: errored, once.
      await post(a, update(3, { status: "exited", errors: 1, duration: 4 }));
      await Promise.all([post(a, update(1, { init: true })), post(b, update(1, { init: true }))]);
      await post(b, update(2, { errors: 1 }));
      const health = await eventually("the merged session", async () => {
        const found = await healthOf(b, "merge@1", project.slug).catch(() => undefined);
        return found && found.totalSessions > 0 && found.sessionsErrored > 0 ? found : undefined;
      });
      assert.equal(health.totalSessions, 1);
      assert.equal(health.totalUsers, 1);
      assert.equal(health.sessionsErrored, 1);
      assert.equal(health.sessionsCrashed, 0);
      close(health.crashFreeSessions, 100, "errored is crash-free");
      assert.equal(health.durationP50, 4);
    });
  });
}
