/**
 * The issue workflow on a real storage (tests/unit/storage-<engine>.test.ts), with real @sentry/node
 * events through the real event item processor: assignment, ignore until a count / a time, resolve
 * in release with semver, pre-releases and build numbers, plain regressions, delete.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createItemRegistry } from "../../src/items";
import { readSpanContainer } from "../../src/items/span";
import type { Issue, Organization, Project, Storage, User } from "../../src/storage/types";
import { parseIssueUpdate } from "../../src/services/issues/issue-update-input";
import { applyIssueUpdate } from "../../src/services/issues/issue-workflow";
import { bulkUpdate, mergeIssues, selectIssues, unmergeHashes } from "../../src/services/issues/issue-bulk";
import { parseIssueListParams } from "../../src/services/issues/list-issues";
import { accessTo, type Access } from "../../src/services/accounts/access";
import { captureEvent, initSentryCapture, Sentry } from "../helpers/sentry-node-capture";
import type { EngineFactory } from "./suite";

const registry = createItemRegistry({ maxEventBytes: 1024 * 1024 });
let sdkReady = false;

function failCheckout(): never {
  throw new Error("checkout failed: card declined");
}

function failLogin(): never {
  throw new TypeError("login failed: no session");
}

function failSearch(): never {
  throw new RangeError("search failed: index offline");
}

/** One real SDK event of the same error each time (same stack, so the same issue), with `release`. */
async function sendError(storage: Storage, project: Project, release: string | null, fail: () => never = failCheckout, userId?: string): Promise<string> {
  const captured = await captureEvent(() => {
    try {
      fail();
    } catch (error) {
      Sentry.captureException(error);
    }
  });
  const payload = { ...captured.payload, release: release ?? undefined, ...(userId ? { user: { id: userId } } : {}) };
  const item = { headers: { type: "event" }, payload: Buffer.from(JSON.stringify(payload)) };
  const context = { projectId: project.id, envelopeHeaders: captured.header, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: "test" };
  const result = registry.processorFor("event").process(item, context);
  const records = result.records.flatMap((record) => (record.kind === "span_container" ? readSpanContainer(record) : [record]));
  const [answer] = await storage.ingest.commit(records);
  assert.equal(answer?.kind, "event");
  return (answer as { issueId: string }).issueId;
}

export function issueWorkflowContract(engine: string, factory: EngineFactory): void {
  describe(`issue workflow contract: ${engine}`, () => {
    let storage: Storage;
    let org: Organization;
    let project: Project;
    let ada: User;
    let bob: User;

    beforeEach(async () => {
      if (!sdkReady) {
        initSentryCapture({ environment: "production" });
        sdkReady = true;
      }
      storage = await factory.create();
      org = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: org.id, slug: "shop", name: "Shop", platform: "node" });
      ada = await storage.accounts.users.create({ email: "ada@example.com", name: "Ada", passwordHash: "$argon2id$x" });
      bob = await storage.accounts.users.create({ email: "bob@example.com", name: "Bob", passwordHash: "$argon2id$x" });
      await storage.accounts.members.add({ organizationId: org.id, userId: ada.id, role: "member" });
      await storage.accounts.members.add({ organizationId: org.id, userId: bob.id, role: "member" });
    });
    afterEach(async () => factory.destroy(storage));

    const update = async (issueId: string, body: unknown, as: User = ada): Promise<Issue> => {
      const issue = (await storage.issues.getById(issueId))!;
      return applyIssueUpdate(storage, { user: as, organization: org }, issue, project, parseIssueUpdate(body));
    };
    const issue = async (id: string) => (await storage.issues.getById(id))!;
    /** Ada's access, as a signed-in session (bulk by query resolves the search as she sees it). */
    const adaAccess = async (): Promise<Access> => {
      const now = Date.now();
      const session = { id: "s1", userId: ada.id, csrfToken: "c", dateCreated: now, expiresAt: now + 3_600_000 };
      return accessTo(storage, { kind: "session", user: ada, session }, org);
    };
    const activityTypes = async (id: string) => (await storage.issueTriage.listActivity(id, 100)).map((a) => a.type).reverse();

    it("assigns to a user by id and by email, to a team, and clears; refuses an unknown assignee", async () => {
      const id = await sendError(storage, project, "shop@1.0.0");
      const team = await storage.accounts.teams.create({ organizationId: org.id, slug: "payments", name: "Payments" });
      await update(id, { assignedTo: `user:${bob.id}` });
      assert.deepEqual((await storage.issueTriage.assignments([id])).get(id), { kind: "user", userId: bob.id });
      await update(id, { assignedTo: "ADA@example.com" });
      assert.deepEqual((await storage.issueTriage.assignments([id])).get(id), { kind: "user", userId: ada.id });
      await update(id, { assignedTo: `team:${team.id}` });
      assert.deepEqual((await storage.issueTriage.assignments([id])).get(id), { kind: "team", teamId: team.id });
      await update(id, { assignedTo: "" });
      assert.equal((await storage.issueTriage.assignments([id])).has(id), false);
      await assert.rejects(update(id, { assignedTo: "nobody@example.com" }), /assignedTo: unknown assignee "nobody@example.com"/);
      const stranger = await storage.accounts.users.create({ email: "eve@example.com", name: "Eve", passwordHash: "$argon2id$x" });
      await assert.rejects(update(id, { assignedTo: `user:${stranger.id}` }), /assignedTo: unknown assignee/);
      await assert.rejects(update(id, { assignedTo: "team:999999" }), /assignedTo: unknown assignee "team:999999"/);
      assert.deepEqual(await activityTypes(id), ["assigned", "assigned", "assigned", "unassigned"]);
      // Status untouched by an assignment alone (the "invalid status" bug).
      assert.equal((await issue(id)).status, "unresolved");
    });

    it("bookmarks per person and marks reviewed", async () => {
      const id = await sendError(storage, project, null);
      await update(id, { isBookmarked: true, inbox: false }, ada);
      assert.deepEqual([...(await storage.issueTriage.bookmarked(ada.id, [id]))], [id]);
      assert.deepEqual([...(await storage.issueTriage.bookmarked(bob.id, [id]))], []);
      assert.deepEqual([...(await storage.issueTriage.reviewed([id]))], [id]);
      await update(id, { isBookmarked: false }, ada);
      assert.equal((await storage.issueTriage.bookmarked(ada.id, [id])).size, 0);
    });

    it("ignored until 3 more events comes back after exactly the 3rd, not the 2nd", async () => {
      const id = await sendError(storage, project, null);
      await sendError(storage, project, null);
      await update(id, { status: "ignored", statusDetails: { ignoreCount: 3 } });
      assert.equal((await issue(id)).substatus, "archived_until_condition_met");
      await update(id, { inbox: false });
      await sendError(storage, project, null);
      await sendError(storage, project, null);
      assert.equal((await issue(id)).status, "ignored");
      assert.equal((await issue(id)).count, 4);
      await sendError(storage, project, null);
      const back = await issue(id);
      assert.equal(back.status, "unresolved");
      assert.equal(back.substatus, "ongoing");
      assert.equal(back.statusDetails, null);
      assert.equal(back.count, 5);
      assert.deepEqual((await activityTypes(id)).slice(-1), ["set_unresolved"]);
      // Back in the for_review inbox.
      assert.equal((await storage.issueTriage.reviewed([id])).size, 0);
    });

    it("ignored until 2 more users comes back with the 2nd new user, not with repeat users", async () => {
      const id = await sendError(storage, project, null, failCheckout, "u1");
      await update(id, { status: "ignored", statusDetails: { ignoreUserCount: 2 } });
      await sendError(storage, project, null, failCheckout, "u1");
      await sendError(storage, project, null, failCheckout, "u2");
      await sendError(storage, project, null, failCheckout, "u2");
      assert.equal((await issue(id)).status, "ignored");
      await sendError(storage, project, null, failCheckout, "u3");
      assert.deepEqual([(await issue(id)).status, (await issue(id)).userCount], ["unresolved", 3]);
    });

    it("ignored until 2 events in a window counts only events since ignoring", async () => {
      const id = await sendError(storage, project, null);
      await sendError(storage, project, null);
      await sendError(storage, project, null);
      await update(id, { status: "ignored", statusDetails: { ignoreCount: 2, ignoreWindow: 60 } });
      assert.deepEqual((await issue(id)).statusDetails && { ...(await issue(id)).statusDetails, ignoredAt: 0 }, {
        kind: "ignore", ignoredAt: 0, actorId: ada.id, until: null, count: 2, window: 60, countTarget: null, userCount: null, userTarget: null, escalating: false,
      });
      await sendError(storage, project, null);
      assert.equal((await issue(id)).status, "ignored", "3 events before ignoring and 1 after: not yet");
      await sendError(storage, project, null);
      assert.equal((await issue(id)).status, "unresolved");
    });

    it("archived until escalating comes back escalating past twice its busiest hour", async () => {
      const id = await sendError(storage, project, null);
      await sendError(storage, project, null);
      await sendError(storage, project, null);
      await update(id, { status: "ignored", substatus: "archived_until_escalating" });
      assert.equal((await issue(id)).substatus, "archived_until_escalating");
      // Busiest hour: 3 events, so more than 6 in an hour escalates: the 7th.
      for (let n = 1; n <= 6; n++) await sendError(storage, project, null);
      assert.equal((await issue(id)).status, "ignored");
      await sendError(storage, project, null);
      assert.deepEqual([(await issue(id)).status, (await issue(id)).substatus], ["unresolved", "escalating"]);
      assert.deepEqual((await activityTypes(id)).slice(-1), ["set_escalating"]);
      // The search's is:escalating finds it (and only it); is:ongoing does not.
      const other = await sendError(storage, project, null, failLogin);
      const byQuery = async (query: string) => (await selectIssues(storage, await adaAccess(), [project], [], parseIssueListParams({ query }))).map((s) => s.issue.id);
      assert.deepEqual(await byQuery("is:escalating"), [id]);
      assert.deepEqual(await byQuery("is:new"), [other]);
      assert.deepEqual(await byQuery("is:ongoing"), []);
    });

    it("ignored forever stays ignored; ignored for a duration comes back when it ends", async () => {
      const forever = await sendError(storage, project, null, failLogin);
      await update(forever, { status: "ignored" });
      await sendError(storage, project, null, failLogin);
      assert.deepEqual([(await issue(forever)).status, (await issue(forever)).substatus], ["ignored", "archived"]);

      const id = await sendError(storage, project, null);
      const before = Date.now();
      await update(id, { status: "ignored", statusDetails: { ignoreDuration: 30 } });
      const details = (await issue(id)).statusDetails;
      assert.ok(details?.kind === "ignore" && details.until !== null && details.until >= before + 30 * 60_000);
      assert.deepEqual(await storage.issues.wakeExpired(before + 29 * 60_000), []);
      assert.deepEqual(await storage.issues.wakeExpired(Date.now() + 31 * 60_000), [id]);
      assert.equal((await issue(id)).status, "unresolved");
      assert.equal((await issue(forever)).status, "ignored");
    });

    it("resolved in a release reopens for that release or newer, not older ones (semver, pre-releases, builds)", async () => {
      const id = await sendError(storage, project, "shop@1.0.0");
      await update(id, { status: "resolved", statusDetails: { inRelease: "shop@1.2.0" } });
      assert.deepEqual((await issue(id)).statusDetails, { kind: "resolve", actorId: ada.id, type: "in_release", release: "shop@1.2.0" });
      await sendError(storage, project, "shop@1.1.9");
      await sendError(storage, project, "shop@1.2.0-rc.2");
      await sendError(storage, project, null);
      assert.equal((await issue(id)).status, "resolved", "older releases, a pre-release of 1.2.0 and no release keep it resolved");
      await sendError(storage, project, "shop@1.2.0");
      assert.deepEqual([(await issue(id)).status, (await issue(id)).substatus], ["unresolved", "regressed"]);

      // Next release after the newest seen (1.2.0): builds order numerically.
      await update(id, { status: "resolved", statusDetails: { inNextRelease: true } });
      assert.deepEqual((await issue(id)).statusDetails, { kind: "resolve", actorId: ada.id, type: "in_next_release", release: "shop@1.2.0" });
      await sendError(storage, project, "shop@1.2.0");
      await sendError(storage, project, "shop@1.2.0-rc.9");
      assert.equal((await issue(id)).status, "resolved");
      await sendError(storage, project, "shop@1.2.0+10");
      assert.equal((await issue(id)).status, "unresolved");
      await update(id, { status: "resolved", statusDetails: { inRelease: "shop@1.2.0+10" } });
      await sendError(storage, project, "shop@1.2.0+9");
      assert.equal((await issue(id)).status, "resolved", "build 9 is older than build 10");
      await sendError(storage, project, "shop@1.2.0+11");
      assert.equal((await issue(id)).status, "unresolved");
      const regressions = (await storage.issueTriage.listActivity(id, 100)).filter((a) => a.type === "set_regression").map((a) => a.data.version).reverse();
      assert.deepEqual(regressions, ["shop@1.2.0", "shop@1.2.0+10", "shop@1.2.0+11"]);
    });

    it("a plain resolve reopens as regressed on any event and returns to the inbox", async () => {
      const id = await sendError(storage, project, "shop@1.0.0");
      await update(id, { status: "resolved", inbox: false });
      assert.equal((await storage.issueTriage.reviewed([id])).size, 1);
      await sendError(storage, project, "shop@0.9.0");
      assert.deepEqual([(await issue(id)).status, (await issue(id)).substatus], ["unresolved", "regressed"]);
      assert.equal((await storage.issueTriage.reviewed([id])).size, 0);
      assert.deepEqual((await activityTypes(id)).slice(-2), ["mark_reviewed", "set_regression"]);
    });

    it("refuses bad statusDetails with the field named", () => {
      const refused = (body: unknown, message: RegExp) => assert.throws(() => parseIssueUpdate(body), message);
      refused({ status: "ignored", statusDetails: { ignoreCount: -1 } }, /ignoreCount: expected a positive integer/);
      refused({ status: "ignored", statusDetails: { ignoreCount: "3" } }, /ignoreCount: expected a positive integer/);
      refused({ status: "ignored", statusDetails: { ignoreWindow: 60 } }, /statusDetails.ignoreWindow: needs ignoreCount/);
      refused({ status: "resolved", statusDetails: { ignoreCount: 3 } }, /statusDetails.ignoreCount: only with status ignored/);
      refused({ status: "ignored", statusDetails: { inRelease: "1.0" } }, /statusDetails.inRelease: only with status resolved/);
      refused({ status: "resolved", statusDetails: { inCommit: { commit: "abc" } } }, /statusDetails.inCommit: resolving in a commit is not supported/);
      refused({ status: "ignored", statusDetails: { ignoreUntil: "soon" } }, /statusDetails.ignoreUntil: expected an ISO 8601 date/);
      refused({ status: "ignored", statusDetails: { snooze: 1 } }, /snooze/);
      refused({ status: "closed" }, /status: expected one of unresolved, resolved, ignored/);
      refused({ assignedTo: 7 }, /assignedTo: expected/);
      refused({ hasSeen: true }, /hasSeen/);
    });

    it("resolving in the next release needs a release", async () => {
      const id = await sendError(storage, project, null);
      await assert.rejects(update(id, { status: "resolved", statusDetails: { inNextRelease: true } }), /statusDetails.inNextRelease: the project has no release yet/);
    });

    it("deletes an issue with its events; a resent event makes a new issue", async () => {
      const id = await sendError(storage, project, null);
      await sendError(storage, project, null);
      const other = await sendError(storage, project, null, failLogin);
      assert.deepEqual(await storage.issues.deleteIssues([id, "999999"]), [id]);
      assert.equal(await storage.issues.getById(id), null);
      assert.equal((await storage.events.listForIssue(id, 10)).items.length, 0);
      assert.equal((await storage.issues.getById(other))?.count, 1);
      const again = await sendError(storage, project, null);
      assert.notEqual(again, id);
      assert.equal((await issue(again)).count, 1);
    });

    it("merges into the issue with the most events; later events of either hash land there; unmerge by hash brings the issue back", async () => {
      const big = await sendError(storage, project, "shop@1.0.0");
      await sendError(storage, project, "shop@1.0.0");
      const small = await sendError(storage, project, "shop@1.1.0", failLogin);
      const bystander = await sendError(storage, project, null, failSearch);
      const before = await issue(small);
      const selected = await selectIssues(storage, await adaAccess(), [project], [small, big], parseIssueListParams({}));
      assert.deepEqual(await mergeIssues(storage, { user: ada, organization: org }, selected), { parent: big, children: [small] });
      assert.equal(await storage.issues.getById(small), null);
      const merged = await issue(big);
      assert.equal(merged.count, 3);
      assert.deepEqual((await storage.events.listForIssue(big, 10)).items.length, 3);
      const hashes = await storage.issues.hashes(big);
      assert.deepEqual(hashes.map((h) => h.merged).sort(), [false, true]);
      // A later event with the merged issue's grouping goes to the merged issue.
      assert.equal(await sendError(storage, project, "shop@1.1.0", failLogin), big);
      assert.equal((await issue(big)).count, 4);
      const releaseTags = (await storage.issues.tagDistribution(big, 10)).find((t) => t.key === "release")!;
      assert.deepEqual(releaseTags.topValues.map((v) => [v.value, v.count]), [["shop@1.0.0", 2], ["shop@1.1.0", 2]]);
      assert.equal((await issue(bystander)).count, 1);

      const hash = hashes.find((h) => h.merged)!.hash;
      await assert.rejects(unmergeHashes(storage, { user: ada, organization: org }, merged, [hashes.find((h) => !h.merged)!.hash]), /is not a hash merged into this issue/);
      assert.deepEqual(await unmergeHashes(storage, { user: ada, organization: org }, merged, [hash]), [small]);
      const back = await issue(small);
      assert.deepEqual([back.shortId, back.title, back.count, back.status], [before.shortId, before.title, 2, "unresolved"]);
      assert.equal((await issue(big)).count, 2);
      const bigReleases = (await storage.issues.tagDistribution(big, 10)).find((t) => t.key === "release")!;
      assert.deepEqual(bigReleases.topValues.map((v) => [v.value, v.count]), [["shop@1.0.0", 2]]);
      assert.equal(await sendError(storage, project, null, failLogin), small);
      assert.equal((await issue(small)).count, 3);
      await assert.rejects(mergeIssues(storage, { user: ada, organization: org }, selected.slice(0, 1)), /merge: needs at least two issues/);
    });

    it("bulk resolves by id and by query", async () => {
      const a = await sendError(storage, project, null);
      const b = await sendError(storage, project, null, failLogin);
      const c = await sendError(storage, project, null, failSearch);
      const actor = { user: ada, organization: org };
      const resolve = parseIssueUpdate({ status: "resolved" });
      await bulkUpdate(storage, actor, await selectIssues(storage, await adaAccess(), [project], [a, b], parseIssueListParams({})), resolve);
      assert.deepEqual([(await issue(a)).status, (await issue(b)).status, (await issue(c)).status], ["resolved", "resolved", "unresolved"]);
      // By query: every unresolved issue matching "search failed".
      const byQuery = await selectIssues(storage, await adaAccess(), [project], [], parseIssueListParams({ status: "unresolved", query: "search failed" }));
      assert.deepEqual(byQuery.map((s) => s.issue.id), [c]);
      await bulkUpdate(storage, actor, byQuery, parseIssueUpdate({ status: "ignored", statusDetails: { ignoreCount: 1 } }));
      assert.equal((await issue(c)).status, "ignored");
      // Ids of other projects are left out.
      const other = await storage.projects.create({ organizationId: org.id, slug: "other", name: "Other", platform: "node" });
      assert.deepEqual(await selectIssues(storage, await adaAccess(), [other], [a], parseIssueListParams({})), []);
      await assert.rejects(selectIssues(storage, await adaAccess(), [project], ["x1"], parseIssueListParams({})), /id: "x1" is not an issue id/);
    });
  });
}
