/**
 * The storage contract: one suite, called once per engine (tests/unit/storage-<engine>.test.ts).
 * Each test gets a fresh storage from the factory, so no test depends on another's rows.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AppError } from "../../src/errors";
import { withoutRefs } from "../../src/search/issue-search-resolve";
import { parseIssueSearch } from "../../src/search/issue-search-terms";
import { eventItem } from "../../src/items/event";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import type { IngestRecord, Project, Storage } from "../../src/storage/types";

export interface EngineFactory {
  create(): Promise<Storage>;
  destroy(storage: Storage): Promise<void>;
  /** What a NUL in text reads back as: itself on SQLite, U+FFFD on PostgreSQL, whose text cannot hold it. */
  storedNul: string;
}

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 20, 12, 30);

function event(id: number, overrides: Partial<NormalizedEvent> = {}): NormalizedEvent {
  return {
    event_id: id.toString(16).padStart(32, "0"),
    timestamp: NOW / 1000,
    received: NOW / 1000,
    platform: "node",
    level: "error",
    environment: "production",
    tags: [["level", "error"], ["environment", "production"]],
    contexts: {},
    breadcrumbs: [],
    exception: [{ type: "TypeError", value: "x is undefined" }],
    errors: [],
    ...overrides,
  };
}

function grouping(hash: string, title = "TypeError: x is undefined"): GroupingResult {
  return {
    hash: hash.padEnd(32, "0"), strategy: "exception", config: "test:1", title, culprit: "app in main",
    metadata: { type: "TypeError", value: "x is undefined" }, eventType: "error",
  };
}

const eventRecord = (project: Project, e: NormalizedEvent, g: GroupingResult, userKey: string | null = null): IngestRecord => ({
  kind: "event", projectId: project.id, event: e, payload: JSON.stringify(e), grouping: g, userKey,
});

export function storageContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract: ${engine}`, () => {
    let storage: Storage;
    let project: Project;

    beforeEach(async () => {
      storage = await factory.create();
      const organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "javascript" });
    });
    afterEach(async () => factory.destroy(storage));

    it("stores organisations, projects and keys and finds them by slug, id and public key", async () => {
      const organization = (await storage.organizations.getBySlug("acme"))!;
      assert.deepEqual(await storage.organizations.list(), [organization]);
      assert.deepEqual(await storage.organizations.getById(organization.id), organization);
      assert.equal(await storage.organizations.getBySlug("nope"), null);
      assert.deepEqual(await storage.projects.getBySlug(organization.id, "web"), project);
      assert.deepEqual(await storage.projects.getById(project.id), project);
      assert.deepEqual(await storage.projects.listByOrganization(organization.id), [project]);
      assert.equal(await storage.projects.getById("999999"), null);
      assert.equal(await storage.projects.getById("not-a-number"), null);
      const key = await storage.keys.create({ projectId: project.id, label: "Default" });
      assert.match(key.publicKey, /^[0-9a-f]{32}$/);
      assert.deepEqual(key, { id: key.id, projectId: project.id, label: "Default", publicKey: key.publicKey, isActive: true, dateCreated: key.dateCreated, rateLimit: null });
      assert.deepEqual(await storage.keys.getByPublicKey(key.publicKey), key);
      assert.deepEqual(await storage.keys.listByProject(project.id), [key]);
      assert.equal(await storage.keys.getByPublicKey("0".repeat(32)), null);
    });

    it("tells key-change listeners about new keys and projects, until they unsubscribe", async () => {
      let calls = 0;
      const unsubscribe = storage.onKeysChanged(() => calls++);
      const settled = async (atLeast: number) => {
        // PostgreSQL delivers notifications asynchronously (LISTEN/NOTIFY); SQLite at once.
        for (let waited = 0; calls < atLeast && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
        return calls;
      };
      await storage.keys.create({ projectId: project.id, label: "Second" });
      assert.ok((await settled(1)) >= 1);
      const afterKey = calls;
      await storage.projects.create({ organizationId: project.organizationId, slug: "api", name: "API", platform: null });
      assert.ok((await settled(afterKey + 1)) > afterKey);
      unsubscribe();
      const before = calls;
      await storage.keys.create({ projectId: project.id, label: "Third" });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(calls, before);
    });

    it("refuses a second organisation or project with the same slug", async () => {
      await assert.rejects(storage.organizations.create({ slug: "acme", name: "Again" }));
      await assert.rejects(storage.projects.create({ organizationId: project.organizationId, slug: "web", name: "Again", platform: null }));
    });

    it("creates an issue from the first event and counts later events, users and hours", async () => {
      const g = grouping("a");
      const results = await storage.ingest.commit([
        eventRecord(project, event(1, { timestamp: (NOW - 2 * HOUR) / 1000, release: "1.0" }), g, "id:1"),
        eventRecord(project, event(2, { release: "1.1" }), g, "id:2"),
        eventRecord(project, event(3), g, "id:1"),
      ]);
      const issueId = (results[0] as { issueId: string }).issueId;
      assert.deepEqual(results, [
        { kind: "event", issueId, duplicate: false },
        { kind: "event", issueId, duplicate: false },
        { kind: "event", issueId, duplicate: false },
      ]);
      assert.deepEqual(await storage.issues.getById(issueId), {
        id: issueId, projectId: project.id, shortId: "WEB-1", title: "TypeError: x is undefined", culprit: "app in main",
        level: "error", type: "error", metadata: { type: "TypeError", value: "x is undefined" }, groupingStrategy: "exception",
        groupingConfig: "test:1", status: "unresolved", substatus: "new", statusDetails: null, firstSeen: NOW - 2 * HOUR, lastSeen: NOW,
        count: 3, userCount: 2, firstRelease: "1.0", lastRelease: "1.1",
      });
      // The release page's "first seen in": by first release only, not by any release the issue was seen in.
      const firstSeenIn = async (firstRelease: string) => (await storage.issues.query({ projectIds: [project.id], sort: "new", limit: 10, now: NOW, firstRelease })).items.map((issue) => issue.id);
      assert.deepEqual(await firstSeenIn("1.0"), [issueId]);
      assert.deepEqual(await firstSeenIn("1.1"), []);
      const page = await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 10, now: NOW });
      const expectedStats = new Array<number>(24).fill(0);
      expectedStats[21] = 1;
      expectedStats[23] = 2;
      assert.deepEqual(page.items.map((issue) => issue.stats24h), [expectedStats]);
      await storage.ingest.commit([eventRecord(project, event(4), g, "id:3")]);
      const later = (await storage.issues.getById(issueId))!;
      assert.deepEqual([later.substatus, later.count, later.userCount], ["ongoing", 4, 3]);
    });

    it("stores the SDK's payload and reads it back as the event normalised in full", async () => {
      const eventId = event(12).event_id;
      const sdkJson = JSON.stringify({
        message: "checkout failed", level: "warning", timestamp: NOW / 1000 - 3_600, user: { ip_address: "{{auto}}" },
        breadcrumbs: [{ category: "ui.click", message: "button#pay", timestamp: NOW / 1000 - 3_610 }],
        extra: { cart: { items: 3 } }, modules: { express: "4.21.0" }, unknown_field: true,
      });
      const context = {
        projectId: project.id, envelopeHeaders: { event_id: eventId, sent_at: new Date(NOW - 3_600_000).toISOString() },
        receivedAt: NOW, clientIp: "198.51.100.4", userAgent: "curl/8.5.0",
      };
      const [record] = eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(sdkJson) }, context).records;
      await storage.ingest.commit([record!]);
      const stored = await storage.events.get(project.id, eventId);
      assert.deepEqual(stored?.payload, {
        event_id: eventId, timestamp: NOW / 1000, received: NOW / 1000, platform: "other", level: "warning",
        environment: "production", logentry: { message: "checkout failed", formatted: "checkout failed" }, contexts: {},
        user: { ip_address: "198.51.100.4" },
        // The clock-drift correction (sent an hour "ago" by the client's clock) applies on read too.
        breadcrumbs: [{ timestamp: NOW / 1000 - 10, category: "ui.click", message: "button#pay" }],
        exception: [], extra: { cart: { items: 3 } }, modules: { express: "4.21.0" }, errors: [],
        tags: [["environment", "production"], ["level", "warning"], ["user", "ip:198.51.100.4"]],
      });
    });

    it("stores a breadcrumb-heavy event (past the size SQLite deflates) and reads it back whole, by id and by issue", async () => {
      const eventId = event(13).event_id;
      const breadcrumbs = Array.from({ length: 100 }, (_, i) => ({
        category: "http", type: "http", message: `GET https://shop.example/api/cart/${i}?step=${"é".repeat(i % 7)}`, timestamp: NOW / 1000 - 100 + i,
      }));
      const sdkJson = JSON.stringify({ message: "cart sync failed", timestamp: NOW / 1000, breadcrumbs });
      assert.ok(sdkJson.length > 10_000, `${sdkJson.length} characters`);
      const context = { projectId: project.id, envelopeHeaders: { event_id: eventId }, receivedAt: NOW, clientIp: "198.51.100.4", userAgent: "curl/8.5.0" };
      const [record] = eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(sdkJson) }, context).records;
      const [result] = await storage.ingest.commit([record!]);
      const stored = await storage.events.get(project.id, eventId);
      assert.equal(stored?.payload.breadcrumbs?.length, 100);
      assert.deepEqual(stored?.payload.breadcrumbs?.[99], {
        timestamp: NOW / 1000 - 1, type: "http", category: "http", message: `GET https://shop.example/api/cart/99?step=${"é".repeat(1)}`,
      });
      assert.deepEqual(stored?.payload.logentry, { message: "cart sync failed", formatted: "cart sync failed" });
      const listed = await storage.events.listForIssue((result as { issueId: string }).issueId, 10);
      assert.deepEqual(listed.items.map((e) => e.payload), [stored?.payload]);
    });

    it("ignores a repeated event id (SDK retry) and reports it as a duplicate", async () => {
      const [first] = await storage.ingest.commit([eventRecord(project, event(7), grouping("a"))]);
      const [again] = await storage.ingest.commit([eventRecord(project, event(7), grouping("a"))]);
      assert.deepEqual(again, { ...first, duplicate: true });
      assert.equal((await storage.issues.getById((first as { issueId: string }).issueId))!.count, 1);
    });

    it("answers a repeated event id that now groups elsewhere with its stored issue, and creates no issue for it", async () => {
      const [first] = await storage.ingest.commit([eventRecord(project, event(9), grouping("a"))]);
      const [again] = await storage.ingest.commit([eventRecord(project, event(9), grouping("elsewhere", "not created"))]);
      assert.deepEqual(again, { ...first, duplicate: true });
      const titles = (await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 10, now: NOW })).items.map((issue) => issue.title);
      assert.deepEqual(titles, ["TypeError: x is undefined"]);
    });

    it("counts a repeated event id within one batch once", async () => {
      const results = await storage.ingest.commit([eventRecord(project, event(8), grouping("a")), eventRecord(project, event(8), grouping("a"))]);
      assert.deepEqual(results.map((r) => (r as { duplicate: boolean }).duplicate), [false, true]);
      assert.equal((await storage.issues.getById((results[0] as { issueId: string }).issueId))!.count, 1);
    });

    it("keeps what an issue shows from its newest event when an older one arrives later", async () => {
      const [r] = await storage.ingest.commit([eventRecord(project, event(1, { release: "2.0" }), grouping("o", "newest title"))]);
      const issueId = (r as { issueId: string }).issueId;
      await storage.ingest.commit([
        eventRecord(project, event(2, { release: "1.0", level: "warning", timestamp: (NOW - HOUR) / 1000 }), grouping("o", "older title")),
      ]);
      const issue = (await storage.issues.getById(issueId))!;
      assert.deepEqual(
        { title: issue.title, level: issue.level, firstRelease: issue.firstRelease, lastRelease: issue.lastRelease, firstSeen: issue.firstSeen, lastSeen: issue.lastSeen, count: issue.count },
        { title: "newest title", level: "error", firstRelease: "1.0", lastRelease: "2.0", firstSeen: NOW - HOUR, lastSeen: NOW, count: 2 },
      );
    });

    it("keeps other projects' issues and events out", async () => {
      const other = await storage.projects.create({ organizationId: project.organizationId, slug: "other", name: "Other", platform: null });
      await storage.ingest.commit([eventRecord(other, event(9), grouping("x", "other project's issue"))]);
      assert.deepEqual((await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 10, now: NOW })).items, []);
      assert.equal(await storage.events.get(project.id, event(9).event_id), null);
      assert.equal((await storage.events.get(other.id, event(9).event_id))!.eventId, event(9).event_id);
    });

    it("reopens a resolved issue as regressed on a new event, but leaves an ignored one ignored", async () => {
      const [a] = await storage.ingest.commit([eventRecord(project, event(1), grouping("a"))]);
      const [b] = await storage.ingest.commit([eventRecord(project, event(2), grouping("b"))]);
      const aId = (a as { issueId: string }).issueId;
      const bId = (b as { issueId: string }).issueId;
      assert.equal((await storage.issues.setStatus(aId, "resolved"))!.status, "resolved");
      assert.equal((await storage.issues.setStatus(bId, "ignored"))!.status, "ignored");
      await storage.ingest.commit([eventRecord(project, event(3), grouping("a")), eventRecord(project, event(4), grouping("b"))]);
      const reopened = (await storage.issues.getById(aId))!;
      assert.deepEqual([reopened.status, reopened.substatus], ["unresolved", "regressed"]);
      const ignored = (await storage.issues.getById(bId))!;
      assert.deepEqual([ignored.status, ignored.substatus], ["ignored", "archived"]);
      assert.equal(await storage.issues.setStatus("424242", "resolved"), null);
    });

    it("filters, sorts and pages the issue list", async () => {
      const records: IngestRecord[] = [];
      for (let i = 0; i < 5; i++) {
        const base = event(0, {
          timestamp: (NOW - (5 - i) * 60_000) / 1000,
          level: i === 0 ? "warning" : "error",
          tags: [["release", i < 2 ? "1.0" : "2.0"], ["environment", i === 4 ? "staging" : "production"]],
        });
        for (let n = 0; n <= i % 3; n++) {
          records.push(eventRecord(project, { ...base, event_id: event(100 + i * 10 + n).event_id }, grouping(`h${i}`, `Error number ${i}`)));
        }
      }
      await storage.ingest.commit(records);
      const titles = async (query: Partial<Parameters<Storage["issues"]["query"]>[0]>) =>
        (await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 10, now: NOW, ...query })).items.map((issue) => issue.title);
      const searched = async (text: string) => titles({ search: await withoutRefs(parseIssueSearch(text, NOW)) });
      assert.deepEqual(await titles({}), ["Error number 4", "Error number 3", "Error number 2", "Error number 1", "Error number 0"]);
      assert.deepEqual(await titles({ sort: "freq" }), ["Error number 2", "Error number 4", "Error number 1", "Error number 3", "Error number 0"]);
      assert.deepEqual(await titles({ level: "warning" }), ["Error number 0"]);
      assert.deepEqual(await titles({ release: "1.0" }), ["Error number 1", "Error number 0"]);
      assert.deepEqual(await titles({ environment: "staging" }), ["Error number 4"]);
      assert.deepEqual(await searched("number 3"), ["Error number 3"]);
      assert.deepEqual(await searched("WEB-2"), ["Error number 1"]);
      assert.deepEqual(await searched("release:2.0"), ["Error number 4", "Error number 3", "Error number 2"]);
      assert.deepEqual(await searched("release:2.0 number 3"), ["Error number 3"]);
      assert.deepEqual(await searched('release:"1.0" environment:production'), ["Error number 1", "Error number 0"]);
      assert.deepEqual(await searched("Error number 4 release:1.0"), []);
      assert.deepEqual(await searched("100%_"), []);
      assert.deepEqual(await titles({ status: "resolved" }), []);
      assert.deepEqual(await titles({ projectIds: [] }), []);

      const first = await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 2, now: NOW });
      const second = await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 2, now: NOW, cursor: first.nextCursor! });
      const third = await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 2, now: NOW, cursor: second.nextCursor! });
      assert.deepEqual([...first.items, ...second.items, ...third.items].map((issue) => issue.title), await titles({}));
      assert.equal(third.nextCursor, null);
      await assert.rejects(storage.issues.query({ projectIds: [project.id], sort: "date", limit: 2, now: NOW, cursor: "garbage" }), AppError);

      assert.deepEqual(await storage.issues.facets(project.id), { releases: ["1.0", "2.0"], environments: ["production", "staging"] });
    });

    it("keeps each issue's tag value distribution", async () => {
      const g = grouping("t");
      const [r] = await storage.ingest.commit([
        eventRecord(project, event(1, { tags: [["browser", "Chrome 120"], ["level", "error"]] }), g),
        eventRecord(project, event(2, { tags: [["browser", "Chrome 120"]] }), g),
        eventRecord(project, event(3, { tags: [["browser", "Firefox 119"]] }), g),
      ]);
      assert.deepEqual(await storage.issues.tagDistribution((r as { issueId: string }).issueId, 5), [
        { key: "browser", totalValues: 3, topValues: [
          { value: "Chrome 120", count: 2, firstSeen: NOW, lastSeen: NOW },
          { value: "Firefox 119", count: 1, firstSeen: NOW, lastSeen: NOW },
        ] },
        { key: "level", totalValues: 1, topValues: [{ value: "error", count: 1, firstSeen: NOW, lastSeen: NOW }] },
      ]);
    });

    it("counts each field of the events' users under its own key beside the user tag (issue search's user.*)", async () => {
      const g = grouping("users");
      const full = { id: "7", email: "dan@example.com", username: "dan", ip_address: "198.51.100.23" };
      const [r] = await storage.ingest.commit([
        eventRecord(project, event(1, { tags: [["user", "id:7"]], user: full }), g, "id:7"),
        eventRecord(project, event(2, { tags: [["user", "id:7"]], user: full }), g, "id:7"),
        eventRecord(project, event(3, { tags: [["user", "email:eve@example.com"]], user: { email: "eve@example.com" } }), g, "email:eve@example.com"),
      ]);
      const byKey = new Map((await storage.issues.tagDistribution((r as { issueId: string }).issueId, 5)).map((tag) => [tag.key, tag.topValues.map((value) => [value.value, value.count])]));
      assert.deepEqual(Object.fromEntries(byKey), {
        user: [["id:7", 2], ["email:eve@example.com", 1]],
        "user.email": [["dan@example.com", 2], ["eve@example.com", 1]],
        "user.id": [["7", 2]],
        "user.ip": [["198.51.100.23", 2]],
        "user.username": [["dan", 2]],
      });
    });

    it("stores and counts an event whose tags hold NUL, beside a plain one in the same commit", async () => {
      const g = grouping("nul");
      const nul = factory.storedNul;
      const [r, plain] = await storage.ingest.commit([
        eventRecord(project, event(1, { tags: [["note", "a\u0000b"], ["release", "1.0\u0000"], ["x\u0000y", "v"]] }), g),
        eventRecord(project, event(2, { tags: [["note", "a"]] }), g),
      ]);
      assert.deepEqual(plain, { kind: "event", issueId: (r as { issueId: string }).issueId, duplicate: false });
      assert.deepEqual(await storage.issues.tagDistribution((r as { issueId: string }).issueId, 5), [
        { key: "note", totalValues: 2, topValues: [
          { value: "a", count: 1, firstSeen: NOW, lastSeen: NOW },
          { value: `a${nul}b`, count: 1, firstSeen: NOW, lastSeen: NOW },
        ] },
        { key: "release", totalValues: 1, topValues: [{ value: `1.0${nul}`, count: 1, firstSeen: NOW, lastSeen: NOW }] },
        { key: `x${nul}y`, totalValues: 1, topValues: [{ value: "v", count: 1, firstSeen: NOW, lastSeen: NOW }] },
      ]);
      assert.deepEqual(await storage.issues.facets(project.id), { releases: [`1.0${nul}`], environments: [] });
    });

    it("pages an issue's events newest first and finds neighbours, oldest and latest", async () => {
      const g = grouping("e");
      await storage.ingest.commit([1, 2, 3].map((i) => eventRecord(project, event(i, { timestamp: (NOW + i * 1000) / 1000 }), g)));
      const latest = (await storage.events.latestForIssue((await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 1, now: NOW })).items[0]!.id))!;
      const issueId = latest.issueId;
      assert.deepEqual(latest, {
        eventId: event(3).event_id, projectId: project.id, issueId, groupingHash: g.hash, timestamp: NOW + 3000,
        received: NOW, payload: event(3, { timestamp: (NOW + 3000) / 1000 }),
      });
      assert.equal((await storage.events.oldestForIssue(issueId))!.eventId, event(1).event_id);
      const page1 = await storage.events.listForIssue(issueId, 2);
      const page2 = await storage.events.listForIssue(issueId, 2, page1.nextCursor!);
      assert.deepEqual([...page1.items, ...page2.items].map((e) => e.eventId), [3, 2, 1].map((i) => event(i).event_id));
      assert.equal(page2.nextCursor, null);
      assert.deepEqual(await storage.events.neighbours(issueId, event(2).event_id), {
        previousEventId: event(1).event_id,
        nextEventId: event(3).event_id,
      });
      assert.deepEqual(await storage.events.neighbours(issueId, "f".repeat(32)), { previousEventId: null, nextEventId: null });
      assert.deepEqual(await storage.events.get(project.id, event(2).event_id).then((e) => e?.eventId), event(2).event_id);
      assert.equal(await storage.events.get(project.id, "f".repeat(32)), null);
    });

    it("pages through equal sort values by id without skipping or repeating", async () => {
      const g = grouping("t2");
      await storage.ingest.commit([1, 2, 3].map((i) => eventRecord(project, event(i), g)));
      await storage.ingest.commit([eventRecord(project, event(4), grouping("t3"))]);
      const issueId = (await storage.events.get(project.id, event(1).event_id))!.issueId;
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await storage.events.listForIssue(issueId, 1, cursor);
        seen.push(...page.items.map((e) => e.eventId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, [3, 2, 1].map((i) => event(i).event_id));
      assert.deepEqual(await storage.events.neighbours(issueId, event(2).event_id), {
        previousEventId: event(1).event_id,
        nextEventId: event(3).event_id,
      });
      const titles: string[] = [];
      let issueCursor: string | undefined;
      do {
        const page = await storage.issues.query({ projectIds: [project.id], sort: "date", limit: 1, now: NOW, cursor: issueCursor });
        titles.push(...page.items.map((issue) => issue.id));
        issueCursor = page.nextCursor ?? undefined;
      } while (issueCursor);
      assert.equal(new Set(titles).size, 2);
      assert.equal(titles.length, 2);
      const wrongType = Buffer.from(JSON.stringify(["x", 1])).toString("base64url");
      await assert.rejects(storage.issues.query({ projectIds: [project.id], sort: "date", limit: 1, now: NOW, cursor: wrongType }), AppError);
      await assert.rejects(storage.events.listForIssue(issueId, 1, wrongType), AppError);
    });

    it("adds outcomes up per outcome, category and reason", async () => {
      const outcome = (o: "accepted" | "unsupported", category: string, reason: string | null, quantity: number): IngestRecord => ({
        kind: "outcome", projectId: project.id, outcome: o, category, reason, quantity, timestamp: NOW,
      });
      await storage.ingest.commit([outcome("accepted", "error", null, 1), outcome("accepted", "error", null, 1), outcome("unsupported", "session", "session", 3)]);
      await storage.ingest.commit([outcome("unsupported", "session", "session", 2)]);
      assert.deepEqual(await storage.outcomes.totals(project.id, NOW - HOUR), [
        { outcome: "accepted", category: "error", reason: null, quantity: 2 },
        { outcome: "unsupported", category: "session", reason: "session", quantity: 5 },
      ]);
      assert.deepEqual(await storage.outcomes.totals(project.id, NOW + 2 * HOUR), []);
    });
  });
}
