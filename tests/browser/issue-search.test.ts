/**
 * The issue search in Chromium (issue 35): a malformed query's 400 message appears under the search
 * box (never "No issues match"), the project filter lists several projects at once, and a saved
 * search can be saved and applied, and the issue workflow's bulk bar acts across the shown projects.
 * Events are real `@sentry/node` output delivered as envelopes.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { eventually } from "../helpers/accounts";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { captureEvents, initSentryCapture, Sentry } from "../helpers/sentry-node-capture";
import { startServer, type TestServer } from "../helpers/server";

const WEB_TITLE = "Cart total went negative";
const API_TITLE = "Queue consumer stalled";

describe("issue search in Chromium", () => {
  let periscope: TestServer;
  let browser: Browser;
  let page: Page;
  let apiProjectId: string;
  let issuesUrl: string;

  async function send(projectId: string, publicKey: string, title: string, flow: string): Promise<void> {
    const [event] = await captureEvents((scope) => {
      scope.setTag("flow", flow);
      Sentry.captureMessage(title, "error");
    });
    const body = `${JSON.stringify({ event_id: event!.header.event_id })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event!.payload)}\n`;
    const response = await fetch(`${periscope.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, { method: "POST", body });
    assert.equal(response.status, 200);
  }

  before(async () => {
    initSentryCapture();
    periscope = await startServer(ADMIN_ENV);
    const api = await periscope.withStorage(async (storage) => {
      const organization = (await storage.organizations.getBySlug(periscope.organizationSlug))!;
      const project = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: "node" });
      return { project, key: await storage.keys.create({ projectId: project.id, label: "Default" }) };
    });
    apiProjectId = api.project.id;
    await send(periscope.projectId, periscope.publicKey, WEB_TITLE, "cart");
    await send(apiProjectId, api.key.publicKey, API_TITLE, "queue");
    await eventually("both issues", async () => {
      const response = await periscope.api(`/api/0/organizations/${periscope.organizationSlug}/issues/?project=-1`);
      const titles = ((await response.json()) as { title: string }[]).map((issue) => issue.title);
      return titles.includes(WEB_TITLE) && titles.includes(API_TITLE) ? true : undefined;
    });
    issuesUrl = `${periscope.baseUrl}/organizations/${periscope.organizationSlug}/issues`;
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginInBrowser(page, periscope.baseUrl);
  });

  after(async () => {
    await Sentry.close();
    await browser?.close();
    await periscope?.stop();
  });

  const rowTitles = async () => (await page.getByTestId("issue-row").allInnerTexts()).map((text) => text.split("\n")[0]);

  test("a malformed query shows its 400 message under the search box, not 'No issues match'", { timeout: 60_000 }, async () => {
    await page.goto(`${issuesUrl}?project=${periscope.projectId}`);
    const box = page.getByLabel("Search issues");
    await box.fill("is:unassinged level:error");
    await Promise.all([page.waitForURL(/query=is%3Aunassinged/), box.press("Enter")]);
    const problem = page.getByTestId("issue-query-problem");
    assert.equal(
      await problem.innerText(),
      'invalid query: is:unassinged: unknown value "unassinged" (supported: unresolved, resolved, ignored, archived, assigned, unassigned, for_review, new, ongoing, regressed, escalating)',
    );
    assert.equal(await page.getByText("No issues match").count(), 0);
    const boxBottom = (await box.boundingBox())!;
    const alertTop = (await page.locator("#issue-query-error").boundingBox())!;
    assert.ok(alertTop.y >= boxBottom.y + boxBottom.height, "the message is below the search box");
    assert.equal(await box.getAttribute("aria-describedby"), "issue-query-error");
  });

  test("the project filter lists several projects at once, or all of them", { timeout: 60_000 }, async () => {
    await page.goto(`${issuesUrl}?project=${periscope.projectId}`);
    assert.deepEqual(await rowTitles(), [WEB_TITLE]);
    await page.getByTestId("project-picker").locator("summary").click();
    await page.getByRole("checkbox", { name: /API/ }).check();
    await Promise.all([page.waitForURL(/project=.*project=/), page.getByRole("button", { name: "Apply" }).first().click()]);
    assert.deepEqual((await rowTitles()).sort(), [API_TITLE, WEB_TITLE].sort());
    await page.goto(`${issuesUrl}?project=${apiProjectId}`);
    assert.deepEqual(await rowTitles(), [API_TITLE]);
    await page.getByTestId("project-picker").locator("summary").click();
    await Promise.all([page.waitForURL(/project=-1/), page.getByRole("button", { name: "All projects" }).click()]);
    assert.equal(await page.getByTestId("issue-scope").innerText(), "All projects");
    assert.deepEqual((await rowTitles()).sort(), [API_TITLE, WEB_TITLE].sort());
  });

  test("a tag's values page lists its values, each linking to the issues with it", { timeout: 60_000 }, async () => {
    const response = await periscope.api(`/api/0/organizations/${periscope.organizationSlug}/issues/?project=-1&query=${encodeURIComponent(`"${API_TITLE}"`)}`);
    const [issue] = (await response.json()) as { id: string }[];
    await page.goto(`${issuesUrl}/${issue!.id}`);
    await Promise.all([page.waitForURL(/\/tags\/flow$/), page.getByTestId("tag-distribution").getByRole("link", { name: "flow", exact: true }).click()]);
    const rows = page.getByTestId("tag-value");
    assert.equal(await rows.count(), 1);
    assert.deepEqual((await rows.first().locator("td").allInnerTexts()).slice(0, 3), ["queue", "1", "100%"]);
    await Promise.all([page.waitForURL(/query=flow%3Aqueue/), page.getByTestId("tag-values").getByRole("link", { name: "queue" }).click()]);
    assert.deepEqual(await rowTitles(), [API_TITLE]);
  });

  test("a saved search is listed and applies its query", { timeout: 60_000 }, async () => {
    await page.goto(`${issuesUrl}?project=-1&query=${encodeURIComponent("flow:queue")}`);
    assert.deepEqual(await rowTitles(), [API_TITLE]);
    await page.getByText("Save this search").click();
    const form = page.getByTestId("save-search-form");
    await form.getByLabel("Name").fill("Stalled queues");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText('Saved "Stalled queues"').waitFor();
    await page.goto(`${issuesUrl}?project=-1`);
    assert.deepEqual((await rowTitles()).sort(), [API_TITLE, WEB_TITLE].sort());
    await Promise.all([page.waitForURL(/query=flow%3Aqueue/), page.getByTestId("saved-searches").getByRole("link", { name: "Stalled queues" }).click()]);
    assert.deepEqual(await rowTitles(), [API_TITLE]);
  });

  test("the bulk bar acts on checked rows of two projects, and on everything a search matches", { timeout: 60_000 }, async () => {
    const statuses = async () => {
      const response = await periscope.api(`/api/0/organizations/${periscope.organizationSlug}/issues/?project=-1&query=`);
      return Object.fromEntries(((await response.json()) as { title: string; status: string }[]).map((issue) => [issue.title, issue.status]));
    };
    const bulk = page.getByTestId("bulk-actions");
    await page.goto(`${issuesUrl}?project=${periscope.projectId},${apiProjectId}`);
    assert.deepEqual((await rowTitles()).sort(), [API_TITLE, WEB_TITLE].sort());
    for (const box of await page.getByTestId("issue-select").all()) await box.check();
    await page.getByTestId("bulk-action").selectOption("ignore");
    await bulk.getByRole("button", { name: "Apply" }).click();
    // Both leave the unresolved list, and the bar (shown only over issues) with them.
    await page.getByTestId("issue-row").first().waitFor({ state: "detached" });
    assert.deepEqual(await statuses(), { [API_TITLE]: "ignored", [WEB_TITLE]: "ignored" });
    // "All matching": the search grammar picks one of the two projects' ignored issues.
    await page.goto(`${issuesUrl}?project=${periscope.projectId},${apiProjectId}&status=ignored&query=${encodeURIComponent("flow:queue")}`);
    assert.deepEqual(await rowTitles(), [API_TITLE]);
    await page.getByTestId("select-all-matching").check();
    await page.getByTestId("bulk-action").selectOption("unresolve");
    await bulk.getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("issue-row").first().waitFor({ state: "detached" });
    assert.deepEqual(await statuses(), { [API_TITLE]: "unresolved", [WEB_TITLE]: "ignored" });
  });
});
