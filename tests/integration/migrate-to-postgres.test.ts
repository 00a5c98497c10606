/**
 * `periscope migrate-to-postgres` on a populated installation: a SQLite server fills its data
 * directory through the real ingest door (errors, sessions, transactions, spans, client reports) and
 * the REST API (a second project and key), plus accounts, artifacts and attachments (bytes in files);
 * the command copies it into a fresh PostgreSQL schema, verifies the counts, and every organisation,
 * project, key, issue, event and attachment reads back the same through the storage interface on both
 * engines.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createPostgresStorage } from "../../src/storage/postgres";
import { createSqliteStorage } from "../../src/storage/sqlite";
import type { Storage } from "../../src/storage/types";
import { readdressedEnvelope } from "../helpers/fixtures";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");
const ERRORS = ["node-error-cause", "node-message", "node-fingerprint", "browser-uncaught-error"];
const TELEMETRY = [
  "node-session-exited", "node-session-ok", "browser-session-unhandled", "node-client-report", "telemetry/node-transaction-task",
  "telemetry/node-http-sessions", "telemetry/browser-span-v2-pageload", "telemetry/browser-static-transaction-pageload",
];
const PAGELOAD = "telemetry/browser-span-v2-pageload";

async function populate(dataDir: string): Promise<void> {
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    const sendBody = async (name: string, body: Buffer, publicKey: string, projectId: string) => {
      const response = await fetch(`${server.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}&sentry_version=7`, {
        method: "POST",
        body: new Uint8Array(body),
      });
      assert.equal(response.status, 200, `${name}: ${await response.text()}`);
    };
    const send = (name: string, publicKey: string, projectId: string) =>
      sendBody(name, readdressedEnvelope(name, { publicKey }).body, publicKey, projectId);
    for (let i = 0; i < 3; i++) for (const name of ERRORS) await send(name, server.publicKey, server.projectId);
    // 24 KB with 90 breadcrumbs: SQLite keeps it deflated, PostgreSQL must receive its text.
    await send("bench/node-medium-error", server.publicKey, server.projectId);
    for (const name of TELEMETRY) await send(name, server.publicKey, server.projectId);
    // Two containers repeating two spans of each other: SQLite keeps both containers whole,
    // PostgreSQL and every read each span once. Without `sent_at` (no clock drift correction,
    // which differs per request) the repeated spans are the same, at times near now.
    const [head, itemHeader, payload] = readdressedEnvelope(PAGELOAD, { publicKey: server.publicKey }).body.toString("latin1").split("\n");
    const headWithoutSentAt = JSON.parse(head!) as Record<string, unknown>;
    delete headWithoutSentAt.sent_at;
    const base = Math.floor(Date.now() / 1000) - 60;
    const items = (JSON.parse(payload!) as { items: Record<string, unknown>[] }).items
      .slice(0, 4)
      .map((item, i) => ({ ...item, start_timestamp: base + i, end_timestamp: base + i + 0.5 }));
    for (const [from, to] of [[0, 3], [1, 4]] as const) {
      const part = [
        JSON.stringify(headWithoutSentAt), JSON.stringify({ ...JSON.parse(itemHeader!), item_count: 3 }), JSON.stringify({ items: items.slice(from, to) }),
      ];
      await sendBody(`page load spans ${from}-${to}`, Buffer.from(part.join("\n"), "latin1"), server.publicKey, server.projectId);
    }
    const created = await server.api(`/api/0/teams/default/default/projects/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Second", slug: "second" }),
    });
    const text = await created.text();
    assert.equal(created.status, 201, text);
    const second = JSON.parse(text) as { id: string };
    const keys = (await (await server.api(`/api/0/projects/default/second/keys/`)).json()) as { public: string }[];
    await send("node-message", keys[0]!.public, second.id);
  } finally {
    await server.stop({ keepData: true });
  }
}

const SESSION_HASH = "a".repeat(64);
const MIGRATED_DEBUG_ID = "0e6e3a4c-1111-4222-8333-444455556666";
const TOKEN_HASH = "b".repeat(64);
const INVITE_HASH = "c".repeat(64);
// Attachments (issue 38): bytes are files on SQLite, bytea on PostgreSQL.
const ATTACHED_EVENT = "f".repeat(32);
const ATTACHED = [
  { filename: "notes.txt", bytes: Buffer.from("migrated notes\n") },
  // Every byte value, over one 512 KiB read slice of PostgreSQL.
  { filename: "crash.dmp", bytes: Buffer.alloc(600_000, 0).map((_, i) => (i * 13) % 256) },
];

/** One row in every accounts table, written the way the services write them. */
async function addAccounts(dataDir: string): Promise<void> {
  const storage = createSqliteStorage(dataDir);
  try {
    const { accounts } = storage;
    const [organization] = await storage.organizations.list();
    const [project] = await storage.projects.listByOrganization(organization!.id);
    const user = await accounts.users.create({ email: "migrated@example.com", name: "Migrated", passwordHash: "$argon2id$migrated" });
    await accounts.loginSessions.create({ userId: user.id, tokenHash: SESSION_HASH, csrfToken: "csrf", expiresAt: Date.now() + 86_400_000 });
    await accounts.tokens.create({ userId: user.id, name: "CI", tokenHash: TOKEN_HASH, tokenLastChars: "bbbb", scopes: ["project:read"] });
    const member = await accounts.members.add({ organizationId: organization!.id, userId: user.id, role: "owner" });
    const team = await accounts.teams.create({ organizationId: organization!.id, slug: "migrated", name: "Migrated" });
    await accounts.teams.addMember(team.id, member.id);
    await accounts.teams.addProject(team.id, project!.id);
    await accounts.invites.create({
      organizationId: organization!.id, role: "member", teamIds: [team.id], email: null, invitedByUserId: user.id,
      tokenHash: INVITE_HASH, expiresAt: Date.now() + 86_400_000,
    });
    await accounts.audit.append({
      organizationId: organization!.id, actorUserId: user.id, actorLabel: user.email, event: "member.invite", targetType: "invite",
      targetId: null, data: { role: "member" }, ipAddress: "203.0.113.9",
    });
    await accounts.loginThrottle.recordFailure("email:migrated@example.com", Date.now());

    // Releases and artifacts, with their bytes (files under the data directory on SQLite).
    const { release } = await storage.releases.create({ organizationId: organization!.id, version: "migrated@1", projectIds: [project!.id], url: null, dateStarted: null, dateReleased: Date.now() });
    await storage.releases.setCommits(release, [{ repository: "acme/web", id: "abc123", message: "fix", authorName: "Ada", authorEmail: "ada@example.com", timestamp: Date.now() }]);
    await storage.releases.addDeploy(release.id, { environment: "production", name: null, url: null, dateStarted: null, dateFinished: Date.now(), projectIds: [project!.id] });
    const blob = (text: string) => ({ bytes: Buffer.from(text), sha1: createHash("sha1").update(text).digest("hex") });
    await storage.artifacts.putChunks(organization!.id, [blob("a chunk")]);
    await storage.artifacts.saveBundle({
      organizationId: organization!.id, checksum: "d".repeat(40), bundleId: MIGRATED_DEBUG_ID, release: "migrated@1", dist: null, projectIds: [project!.id], size: 100,
      files: [{ url: "~/app.min.js", kind: "minified_source", debugId: MIGRATED_DEBUG_ID, sourceMapRef: "app.min.js.map", ...blob("a()") }],
    });
    const received = Date.now();
    await storage.ingest.commit(ATTACHED.map(({ filename, bytes }) => {
      const sha1 = createHash("sha1").update(bytes).digest("hex");
      return {
        kind: "attachment" as const, projectId: project!.id, received, projectLimit: 1 << 30, bytes,
        attachment: {
          id: createHash("sha1").update(`${ATTACHED_EVENT}${filename}`).digest("hex").slice(0, 32), eventId: ATTACHED_EVENT, filename,
          contentType: filename.endsWith(".txt") ? "text/plain" : null, attachmentType: filename.endsWith(".dmp") ? "event.minidump" : "event.attachment",
          size: bytes.length, sha1,
        },
      };
    }));
    await storage.artifacts.saveReleaseFile({
      organizationId: organization!.id, projectId: project!.id, release: "migrated@1", dist: null, name: "~/old.js", kind: "source",
      debugId: null, sourceMapRef: null, headers: {}, ...blob("old()"),
    });
  } finally {
    await storage.close();
  }
}

/** Every account row readable through the storage interface. */
async function accountsSnapshot(storage: Storage, organizationIds: string[]) {
  const { accounts } = storage;
  const now = Date.now();
  const users = await accounts.users.list();
  const teams = (await Promise.all(organizationIds.map((id) => accounts.teams.listByOrganization(id)))).flat();
  return {
    users,
    passwords: await Promise.all(users.map((u) => accounts.users.passwordHashOf(u.id))),
    tokens: await Promise.all(users.map((u) => accounts.tokens.listForUser(u.id))),
    session: await accounts.loginSessions.getValid(SESSION_HASH, now),
    members: await Promise.all(organizationIds.map((id) => accounts.members.listByOrganization(id))),
    teams,
    teamMembers: await Promise.all(teams.map((t) => accounts.teams.listMembers(t.id))),
    teamProjects: await Promise.all(teams.map((t) => accounts.teams.listProjectIds(t.id))),
    invites: await Promise.all(organizationIds.map((id) => accounts.invites.listPending(id, now))),
    audit: await Promise.all(organizationIds.map((id) => accounts.audit.list(id, 100))),
    failures: await accounts.loginThrottle.countSince("email:migrated@example.com", 0),
  };
}

/** Everything readable through the storage interface, for a whole-object comparison. */
async function snapshot(storage: Storage) {
  const organizations = await storage.organizations.list();
  const projects = (await Promise.all(organizations.map((o) => storage.projects.listByOrganization(o.id)))).flat();
  const keys = await Promise.all(projects.map((p) => storage.keys.listByProject(p.id)));
  const now = Date.now();
  const issues = (await storage.issues.query({ projectIds: projects.map((p) => p.id), sort: "date", limit: 100, now })).items;
  const events = await Promise.all(issues.map((i) => storage.events.listForIssue(i.id, 100)));
  const tags = await Promise.all(issues.map((i) => storage.issues.tagDistribution(i.id, 10)));
  const projectIds = projects.map((p) => p.id);
  const spans = await storage.spans.list({ projectIds, limit: 100 });
  const window = { projectIds, start: Math.floor(now / 3_600_000) * 3_600_000 - 48 * 3_600_000, end: Math.ceil(now / 3_600_000) * 3_600_000 + 3_600_000 };
  const sessions = await storage.sessions.stats({ ...window, interval: 3_600_000, groupBy: ["project", "release", "environment"] });
  const outcomes = await storage.outcomes.hourly(window);
  const transactions = await Promise.all(spans.items.filter((s) => s.eventId).map((s) => storage.transactions.get(s.projectId, s.eventId!)));
  const accounts = await accountsSnapshot(storage, organizations.map((o) => o.id));
  const releases = await Promise.all(organizations.map((o) => storage.releases.list(o.id, { limit: 100 })));
  const releaseIds = releases.flat().map((r) => r.id);
  const artifacts = await Promise.all(projects.map(async (p) => {
    const found = [...(await storage.artifacts.byDebugId(p.id, MIGRATED_DEBUG_ID)), ...(await storage.artifacts.byReleaseUrl(p.id, "migrated@1", null, ["~/old.js", "~/app.min.js"]))];
    return { found, bytes: await Promise.all(found.map((f) => storage.artifacts.content(f.sha1).then((b) => b?.toString("utf8")))), bundles: await storage.artifacts.listBundles(p.id) };
  }));
  const releaseData = {
    releases,
    commits: await Promise.all(releaseIds.map((id) => storage.releases.listCommits(id))),
    deploys: await Promise.all(releaseIds.map((id) => storage.releases.listDeploys(id))),
    repositories: await Promise.all(organizations.map((o) => storage.releases.listRepositories(o.id))),
    activity: await storage.releaseActivity.forProjects(projectIds),
    chunks: await Promise.all(organizations.map((o) => storage.artifacts.missingChunks(o.id, [createHash("sha1").update("a chunk").digest("hex")]))),
    artifacts,
  };
  const attachments = await Promise.all(projects.map(async (p) => {
    const listed = await storage.attachments.listForEvent(p.id, ATTACHED_EVENT);
    return { listed, sha1s: await Promise.all(listed.map(async (a) => createHash("sha1").update((await storage.attachments.read(p.id, ATTACHED_EVENT, a.id)) ?? "").digest("hex"))) };
  }));
  return { releaseData, organizations, projects, keys, issues, events, tags, spans, sessions, outcomes, transactions, accounts, attachments };
}

if (await postgresForTests("migrate-to-postgres")) {
  describe("periscope migrate-to-postgres", () => {
    let dataDir: string;
    let schema: TestSchema;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), "periscope-migrate-"));
      schema = await freshSchema();
      await populate(dataDir);
      await addAccounts(dataDir);
    });
    after(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    });

    it("copies everything, reports progress, verifies counts, and refuses a database that is not empty", async () => {
      const run = () => spawnSync(process.execPath, ["bin/periscope.js", "migrate-to-postgres", "--from", dataDir, "--to", schema.url], { cwd: root, encoding: "utf8" });
      const first = run();
      assert.equal(first.status, 0, first.stdout + first.stderr);
      assert.match(first.stdout, /events: 14\/14 \(100%\)/);
      // The view lists the 2 repeated spans twice; PostgreSQL holds them once, and the counts agree.
      const spans = /spans: (\d+)\/(\d+)/.exec(first.stdout);
      const stored = /spans +sqlite +(\d+) +postgres +(\d+) +ok/.exec(first.stdout);
      assert.ok(spans && stored, first.stdout);
      assert.equal(Number(spans[2]), Number(stored[1]) + 2, first.stdout);
      assert.match(first.stdout, /Done: every row arrived/);
      assert.doesNotMatch(first.stdout, /MISMATCH/);

      const sqlite = createSqliteStorage(dataDir);
      const postgres = await createPostgresStorage({ url: schema.url, poolSize: 2 });
      try {
        const [before, after] = [await snapshot(sqlite), await snapshot(postgres)];
        assert.equal(before.organizations.length, 1);
        assert.equal(before.projects.length, 3);
        assert.equal(before.issues.length >= 4, true);
        assert.equal(before.events.flatMap((page) => page.items).length, 14);
        assert.ok(before.spans.items.length > 0 && before.sessions.length > 0 && before.outcomes.length > 0);
        const migrated = before.accounts.teams.findIndex((t) => t.slug === "migrated");
        assert.ok(migrated >= 0);
        assert.deepEqual(before.accounts.teamMembers[migrated]!.map((m) => [m.user.email, m.role]), [["migrated@example.com", "owner"]]);
        assert.equal(before.accounts.teamProjects[migrated]!.length, 1);
        assert.equal(before.accounts.session?.csrfToken, "csrf");
        assert.equal(before.accounts.failures, 1);
        assert.ok(before.accounts.tokens.flat().some((t) => t.name === "CI" && t.scopes.join() === "project:read"));
        assert.ok(before.accounts.invites.flat().some((i) => i.teamIds.join() === before.accounts.teams[migrated]!.id));
        assert.ok(before.accounts.audit.flat().some((e) => e.event === "member.invite" && e.ipAddress === "203.0.113.9"));
        assert.equal(before.releaseData.commits.flat().length, 1);
        assert.deepEqual(before.releaseData.chunks, [[]]);
        assert.deepEqual(before.releaseData.artifacts.flatMap((a) => a.bytes).sort(), ["a()", "a()", "old()"]);
        // Attachments: metadata and bytes (compared by hash, computed here from what was sent).
        const sent = ATTACHED.map(({ filename, bytes }) => [filename, bytes.length, createHash("sha1").update(bytes).digest("hex")]);
        const attached = before.attachments.find((a) => a.listed.length > 0)!;
        assert.deepEqual(attached.listed.map((a, i) => [a.filename, a.size, attached.sha1s[i]]).sort(), sent.sort());
        assert.match(first.stdout, /attachments +sqlite +2 +postgres +2 +ok/);
        assert.deepEqual(after, before);

        // Ids continue after the copied ones: a new project gets the next id.
        const organization = after.organizations[0]!;
        const next = await postgres.projects.create({ organizationId: organization.id, slug: "third", name: "Third", platform: null });
        assert.equal(Number(next.id), Math.max(...after.projects.map((p) => Number(p.id))) + 1);
        const user = await postgres.accounts.users.create({ email: "after@example.com", name: "After", passwordHash: "$argon2id$after" });
        assert.equal(Number(user.id), Math.max(...after.accounts.users.map((u) => Number(u.id))) + 1);
      } finally {
        await sqlite.close();
        await postgres.close();
      }

      const again = run();
      assert.equal(again.status, 1);
      assert.match(again.stderr, /not empty/);
    });
  });
}
