/**
 * The issue workflow in Chromium against a real Periscope fed by the real @sentry/node SDK: assign
 * from the issue page, bookmark, mark reviewed, a markdown comment (HTML in it shown as text), then
 * bulk-select two issues on the list and resolve them. Checked on the page and through the API.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import * as Sentry from "@sentry/node";
import { chromium, type Browser, type Page } from "playwright-core";
import { ADMIN_ENV, loginInBrowser } from "../helpers/browser-login";
import { chromiumArgs } from "../helpers/chromium";
import { eventually } from "../helpers/monitoring";
import { startServer, type TestServer } from "../helpers/server";

interface GroupJson {
  id: string;
  title: string;
  status: string;
  assignedTo: { type: string; name: string } | null;
  isBookmarked: boolean;
  inbox: unknown;
}

function failCheckout(): never {
  throw new Error("checkout failed in workflow test");
}
function failLogin(): never {
  throw new TypeError("login failed in workflow test");
}
function failSearch(): never {
  throw new RangeError("search failed in workflow test");
}

describe("issue workflow in the UI", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const issues = new Map<string, GroupJson>();
  const later = new Map<() => never, unknown>();

  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await server.api(path, init);
    const text = await response.text();
    assert.ok(response.ok, `${init.method ?? "GET"} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const issueUrl = (id: string) => `${server.baseUrl}/organizations/${server.organizationSlug}/issues/${id}`;

  before(async () => {
    server = await startServer(ADMIN_ENV);
    Sentry.init({ dsn: server.dsn, defaultIntegrations: false, release: "shop@1.0.0" });
    // Two errors of each kind thrown from the same lines (so they group together): one sent now, one kept for later.
    for (const fail of [failCheckout, failLogin, failSearch]) {
      const thrown: unknown[] = [];
      for (let copy = 0; copy < 2; copy++) {
        try {
          fail();
        } catch (error) {
          thrown.push(error);
        }
      }
      Sentry.captureException(thrown[0]);
      later.set(fail, thrown[1]);
    }
    assert.equal(await Sentry.flush(10_000), true);
    const listed = await eventually("the three issues", async () => {
      const list = await api<GroupJson[]>(`/api/0/organizations/${server.organizationSlug}/issues/?query=is:unresolved`);
      return list.length === 3 ? list : undefined;
    });
    for (const issue of listed) issues.set(issue.title.split(":")[0]!, issue);
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginInBrowser(page, server.baseUrl);
  });

  after(async () => {
    await browser?.close();
    await Sentry.close();
    await server?.stop();
  });

  test("assigns, bookmarks, marks reviewed and comments from the issue page", async () => {
    const checkout = issues.get("Error")!;
    await page.goto(issueUrl(checkout.id));
    const panel = page.getByTestId("issue-workflow");
    const assignee = panel.getByTestId("assignee");
    const ownerOption = await assignee.locator("optgroup[label=People] option").first().getAttribute("value");
    assert.match(ownerOption ?? "", /^user:\d+$/);
    await assignee.selectOption(ownerOption!);
    await panel.getByRole("button", { name: "Assign" }).click();
    await panel.getByText(/assigned this to/).waitFor();
    const assigned = await api<GroupJson>(`/api/0/issues/${checkout.id}/`);
    assert.equal(assigned.assignedTo?.type, "user");

    await panel.getByRole("button", { name: "Bookmark" }).click();
    await panel.getByRole("button", { name: "Remove bookmark" }).waitFor();
    await panel.getByRole("button", { name: "Mark reviewed" }).click();
    await panel.getByTestId("reviewed").waitFor();
    assert.equal((await api<GroupJson>(`/api/0/issues/${checkout.id}/`)).inbox, false);

    await panel.getByTestId("until").selectOption("10-events");
    await panel.getByTestId("until-form").getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("issue-status").getByText("Ignored").waitFor();
    const ignored = await api<GroupJson & { statusDetails: unknown; substatus: string }>(`/api/0/issues/${checkout.id}/`);
    assert.deepEqual([ignored.status, ignored.substatus, ignored.statusDetails], ["ignored", "archived_until_condition_met", { ignoreCount: 10 }]);
    await api(`/api/0/issues/${checkout.id}/`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "unresolved" }) });

    await panel.locator("textarea[name=text]").fill("Looks like **the card API** again <img src=x onerror=alert(1)>");
    await panel.getByRole("button", { name: "Comment" }).click();
    const strong = panel.getByTestId("activity").locator("strong", { hasText: "the card API" });
    await strong.waitFor();
    assert.equal(await panel.getByTestId("activity").locator("img").count(), 0, "HTML in a comment is text, not markup");
    await panel.getByTestId("activity").getByText("<img src=x onerror=alert(1)>", { exact: false }).waitFor();
    // The list answers the same assignee; the bookmark is the browser user's, not the API token's owner's unless the same person.
    const listed = await api<GroupJson[]>(`/api/0/organizations/${server.organizationSlug}/issues/?query=`);
    assert.equal(listed.find((issue) => issue.id === checkout.id)?.assignedTo?.type, "user");
    assert.equal(listed.filter((issue) => issue.assignedTo !== null).length, 1);
    const comments = await api<{ data: { text: string } }[]>(`/api/0/issues/${checkout.id}/comments/`);
    assert.deepEqual(comments.map((c) => c.data.text), ["Looks like **the card API** again <img src=x onerror=alert(1)>"]);
  });

  test("bulk-selects two issues on the list and resolves them", async () => {
    const [login, search, checkout] = [issues.get("TypeError")!, issues.get("RangeError")!, issues.get("Error")!];
    await page.goto(`${server.baseUrl}/organizations/${server.organizationSlug}/issues?project=${server.projectId}`);
    await page.getByLabel(new RegExp(`^Select .*`)).first().waitFor();
    for (const issue of [login, search]) {
      const shortId = (await api<{ shortId: string }>(`/api/0/issues/${issue.id}/`)).shortId;
      await page.getByLabel(`Select ${shortId}`).check();
    }
    await page.getByTestId("bulk-action").selectOption("resolve");
    await page.getByTestId("bulk-actions").getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("bulk-actions").getByText("Updated 2 issues").waitFor();
    const statuses = await Promise.all([login, search, checkout].map(async (issue) => (await api<GroupJson>(`/api/0/issues/${issue.id}/`)).status));
    assert.deepEqual(statuses, ["resolved", "resolved", "unresolved"]);
    assert.equal(await page.getByTestId("issue-row").count(), 1, "the unresolved list now shows only the third issue");
  });

  test("bulk API: unresolve by query, merge, a later event lands on the parent, unmerge, delete", async () => {
    const [login, search] = [issues.get("TypeError")!, issues.get("RangeError")!];
    const org = server.organizationSlug;
    const projectSlug = (await api<{ project: { slug: string } }>(`/api/0/issues/${login.id}/`)).project.slug;
    const json = (body: unknown): RequestInit => ({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    const unresolved = await api<{ status: string }>(`/api/0/organizations/${org}/issues/?query=is:resolved`, json({ status: "unresolved" }));
    assert.equal(unresolved.status, "unresolved");
    for (const issue of [login, search]) assert.equal((await api<GroupJson>(`/api/0/issues/${issue.id}/`)).status, "unresolved");

    const bad = await server.api(`/api/0/projects/${org}/${projectSlug}/issues/?id=${login.id}`, json({ status: "ignored", statusDetails: { ignoreCount: "x" } }));
    assert.deepEqual([bad.status, await bad.json()], [400, { detail: "statusDetails.ignoreCount: expected a positive integer" }]);

    // Equal counts: the lower id is the parent.
    const [parent, child] = Number(login.id) < Number(search.id) ? [login, search] : [search, login];
    const merged = await api<{ merge: { parent: string; children: string[] } }>(`/api/0/projects/${org}/${projectSlug}/issues/?id=${login.id}&id=${search.id}`, json({ merge: 1 }));
    assert.deepEqual(merged.merge, { parent: parent.id, children: [child.id] });
    assert.equal((await server.api(`/api/0/issues/${child.id}/`)).status, 404);

    Sentry.captureException(later.get(child === login ? failLogin : failSearch));
    assert.equal(await Sentry.flush(10_000), true);
    await eventually("the new event on the parent", async () => ((await api<{ count: string }>(`/api/0/issues/${parent.id}/`)).count === "3" ? true : undefined));

    const hashes = await api<{ id: string; merged: boolean }[]>(`/api/0/issues/${parent.id}/hashes/`);
    assert.deepEqual(hashes.map((h) => h.merged), [false, true]);
    const unmerge = await server.api(`/api/0/issues/${parent.id}/hashes/?id=${hashes[1]!.id}`, { method: "DELETE" });
    assert.equal(unmerge.status, 204);
    const back = await api<{ id: string; count: string }>(`/api/0/issues/${child.id}/`);
    assert.deepEqual([back.id, back.count], [child.id, "2"]);
    assert.equal((await api<{ count: string }>(`/api/0/issues/${parent.id}/`)).count, "1");

    const deleted = await server.api(`/api/0/projects/${org}/${projectSlug}/issues/?id=${child.id}`, { method: "DELETE" });
    assert.equal(deleted.status, 204);
    assert.equal((await server.api(`/api/0/issues/${child.id}/`)).status, 404);
    const events = await server.api(`/api/0/issues/${child.id}/events/`);
    assert.equal(events.status, 404);
  });
});
