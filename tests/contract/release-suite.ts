/**
 * The releases and artifacts part of the storage contract (release-types.ts), called once per
 * engine (tests/unit/storage-<engine>.test.ts). Each test gets a fresh storage.
 */
import { randomBytes } from "node:crypto";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AppError } from "../../src/errors";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import type { NewBundleFile, Organization, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const HOUR = 3_600_000;
const sha1 = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex");
const DEBUG_ID = "c941d872-af1f-4f0c-a7ff-ad3d295fe153";

function file(url: string, kind: NewBundleFile["kind"], text: string, debugId: string | null = DEBUG_ID, sourceMapRef: string | null = null): NewBundleFile {
  const bytes = Buffer.from(text);
  return { url, kind, debugId, sourceMapRef, bytes, sha1: sha1(bytes) };
}

function event(id: number, release: string, timestampMs: number): NormalizedEvent {
  return {
    event_id: id.toString(16).padStart(32, "0"),
    timestamp: timestampMs / 1000,
    received: timestampMs / 1000,
    platform: "javascript",
    level: "error",
    environment: "production",
    release,
    tags: [["level", "error"], ["environment", "production"], ["release", release]],
    contexts: {},
    breadcrumbs: [],
    exception: [{ type: "TypeError", value: `x is undefined ${id}` }],
    errors: [],
  };
}

const grouping = (hash: string): GroupingResult => ({
  hash: hash.padEnd(32, "0"), strategy: "exception", config: "test:1", title: `TypeError ${hash}`, culprit: "app in main",
  metadata: { type: "TypeError" }, eventType: "error",
});

export function releaseContract(engine: string, factory: EngineFactory): void {
  describe(`releases contract: ${engine}`, () => {
    let storage: Storage;
    let acme: Organization;
    let other: Organization;
    let web: Project;
    let api: Project;
    let foreign: Project;

    beforeEach(async () => {
      storage = await factory.create();
      acme = await storage.organizations.create({ slug: "acme", name: "Acme" });
      other = await storage.organizations.create({ slug: "other", name: "Other" });
      web = await storage.projects.create({ organizationId: acme.id, slug: "web", name: "Web", platform: "javascript" });
      api = await storage.projects.create({ organizationId: acme.id, slug: "api", name: "API", platform: "node" });
      foreign = await storage.projects.create({ organizationId: other.id, slug: "web", name: "Web", platform: "javascript" });
    });
    afterEach(async () => factory.destroy(storage));

    it("creates a release once, adds projects of its own organisation only, finalizes and deletes it", async () => {
      const { releases } = storage;
      const first = await releases.create({ organizationId: acme.id, version: "web@1.0.0", projectIds: [web.id, foreign.id], url: null, dateStarted: NOW, dateReleased: null });
      assert.equal(first.created, true);
      assert.deepEqual(first.release.projectIds, [web.id]);
      assert.equal(first.release.dateReleased, null);
      assert.equal(first.release.status, "open");
      const again = await releases.create({ organizationId: acme.id, version: "web@1.0.0", projectIds: [api.id], url: null, dateStarted: null, dateReleased: null });
      assert.equal(again.created, false);
      assert.equal(again.release.id, first.release.id);
      assert.deepEqual(again.release.projectIds, [web.id, api.id].sort((a, b) => Number(a) - Number(b)));
      // Versions are per organisation.
      const theirs = await releases.create({ organizationId: other.id, version: "web@1.0.0", projectIds: [foreign.id], url: null, dateStarted: null, dateReleased: null });
      assert.notEqual(theirs.release.id, first.release.id);

      const finalized = await releases.update(acme.id, "web@1.0.0", { dateReleased: NOW + HOUR, url: "https://example.com/r/1" });
      assert.equal(finalized?.dateReleased, NOW + HOUR);
      assert.equal(finalized?.url, "https://example.com/r/1");
      assert.equal(await releases.update(acme.id, "nope", { dateReleased: NOW }), null);

      await releases.create({ organizationId: acme.id, version: "api@2.0.0", projectIds: [api.id], url: null, dateStarted: null, dateReleased: null });
      assert.deepEqual((await releases.list(acme.id, { limit: 10 })).map((r) => r.version), ["api@2.0.0", "web@1.0.0"]);
      assert.deepEqual((await releases.list(acme.id, { projectIds: [web.id], limit: 10 })).map((r) => r.version), ["web@1.0.0"]);
      assert.deepEqual((await releases.list(acme.id, { query: "API@", limit: 10 })).map((r) => r.version), ["api@2.0.0"]);
      assert.deepEqual((await releases.list(acme.id, { query: "%", limit: 10 })).map((r) => r.version), []);
      assert.deepEqual((await releases.list(other.id, { limit: 10 })).map((r) => r.version), ["web@1.0.0"]);

      await releases.addDeploy(first.release.id, { environment: "production", name: null, url: null, dateStarted: null, dateFinished: NOW, projectIds: [web.id] });
      assert.equal(await releases.delete(acme.id, "web@1.0.0"), true);
      assert.equal(await releases.delete(acme.id, "web@1.0.0"), false);
      assert.equal(await releases.get(acme.id, "web@1.0.0"), null);
      assert.equal((await releases.listDeploys(first.release.id)).length, 0);
      assert.notEqual(await releases.get(other.id, "web@1.0.0"), null);
    });

    it("replaces commits, makes their repositories, and finds the previous release with commits", async () => {
      const { releases } = storage;
      const { release: one } = await releases.create({ organizationId: acme.id, version: "1.0", projectIds: [web.id], url: null, dateStarted: null, dateReleased: null });
      const commit = (id: string, repository = "acme/web") => ({ repository, id, message: `fix ${id}`, authorName: "Ada", authorEmail: "ada@example.com", timestamp: NOW });
      await releases.setCommits(one, [commit("bbb"), commit("aaa"), commit("ccc", "acme/lib")]);
      assert.deepEqual((await releases.listCommits(one.id)).map((c) => `${c.repository}@${c.id}`), ["acme/web@bbb", "acme/web@aaa", "acme/lib@ccc"]);
      assert.deepEqual((await releases.listRepositories(acme.id)).map((r) => r.name), ["acme/lib", "acme/web"]);
      assert.deepEqual(await releases.listRepositories(other.id), []);
      await releases.setCommits(one, [commit("ddd")]);
      assert.deepEqual(await releases.listCommits(one.id), [commit("ddd")]);

      const { release: two } = await releases.create({ organizationId: acme.id, version: "2.0", projectIds: [web.id], url: null, dateStarted: null, dateReleased: null });
      const previous = await releases.previousWithCommits(two);
      assert.equal(previous?.release.version, "1.0");
      assert.equal(previous?.lastCommit.id, "ddd");
      assert.equal(await releases.previousWithCommits(one), null);
      assert.equal((await releases.lastCommits([one.id, two.id])).get(one.id)?.id, "ddd");

      const made = await releases.ensureRepository({ organizationId: acme.id, name: "acme/api", url: "https://git.example.com/acme/api", provider: null });
      const same = await releases.ensureRepository({ organizationId: acme.id, name: "acme/api", url: null, provider: null });
      assert.equal(same.id, made.id);
      assert.equal(same.url, "https://git.example.com/acme/api");
    });

    it("lists deploys newest first and the last deploy per release", async () => {
      const { releases } = storage;
      const { release } = await releases.create({ organizationId: acme.id, version: "1.0", projectIds: [web.id], url: null, dateStarted: null, dateReleased: null });
      const staging = await releases.addDeploy(release.id, { environment: "staging", name: "first", url: null, dateStarted: NOW - HOUR, dateFinished: NOW, projectIds: [web.id] });
      const production = await releases.addDeploy(release.id, { environment: "production", name: null, url: "https://ci.example.com/1", dateStarted: null, dateFinished: NOW + HOUR, projectIds: [web.id] });
      assert.deepEqual(await releases.listDeploys(release.id), [production, staging]);
      assert.deepEqual(staging, { id: staging.id, releaseId: release.id, environment: "staging", name: "first", url: null, dateStarted: NOW - HOUR, dateFinished: NOW, projectIds: [web.id] });
      assert.deepEqual((await releases.lastDeploys([release.id])).get(release.id), production);
    });

    it("derives implicit releases from events: first/last event and new issues per project", async () => {
      await storage.ingest.commit([
        { kind: "event", projectId: web.id, event: event(1, "1.0", NOW - 2 * HOUR), payload: "{}", grouping: grouping("a"), userKey: null },
        { kind: "event", projectId: web.id, event: event(2, "1.0", NOW - HOUR), payload: "{}", grouping: grouping("b"), userKey: null },
        { kind: "event", projectId: web.id, event: event(3, "2.0", NOW), payload: "{}", grouping: grouping("a"), userKey: null },
        { kind: "event", projectId: foreign.id, event: event(4, "9.9", NOW), payload: "{}", grouping: grouping("c"), userKey: null },
      ]);
      const activity = await storage.releaseActivity.forProjects([web.id, api.id]);
      assert.deepEqual(activity, [
        { projectId: web.id, version: "1.0", firstEvent: NOW - 2 * HOUR, lastEvent: NOW - HOUR, newIssues: 2 },
        { projectId: web.id, version: "2.0", firstEvent: NOW, lastEvent: NOW, newIssues: 0 },
      ]);
      assert.deepEqual(await storage.releaseActivity.forProjects([]), []);
    });

    it("stores chunks per organisation and says which are missing", async () => {
      const { artifacts } = storage;
      const a = Buffer.from("chunk a");
      const b = Buffer.from("chunk b");
      await artifacts.putChunks(acme.id, [{ sha1: sha1(a), bytes: a }]);
      assert.deepEqual(await artifacts.missingChunks(acme.id, [sha1(a), sha1(b)]), [sha1(b)]);
      assert.deepEqual(await artifacts.missingChunks(other.id, [sha1(a)]), [sha1(a)]);
      await artifacts.putChunks(acme.id, [{ sha1: sha1(a), bytes: a }, { sha1: sha1(b), bytes: b }]);
      assert.deepEqual(await artifacts.missingChunks(acme.id, [sha1(a), sha1(b)]), []);
      assert.deepEqual(await artifacts.content(sha1(b)), b);
      assert.equal(await artifacts.content("0".repeat(40)), null);
      assert.equal(await artifacts.content("../../etc/passwd"), null);
    });

    it("reads a blob larger than one read slice back byte for byte", async () => {
      const { artifacts } = storage;
      // PostgreSQL reads blobs in 512 KiB slices: this one ends mid-slice, after two whole ones.
      const big = randomBytes(2 * 512 * 1024 + 12_345);
      await artifacts.putChunks(acme.id, [{ sha1: sha1(big), bytes: big }]);
      const read = await artifacts.content(sha1(big));
      assert.equal(read?.length, big.length);
      assert.ok(read?.equals(big), "the bytes read back are the bytes stored");
    });

    it("stores a bundle with its manifest once, and looks it up by debug id per project", async () => {
      const { artifacts } = storage;
      assert.equal(await artifacts.hasArtifacts(web.id), false);
      const minified = file("~/app.min.js", "minified_source", "function a(){throw new Error}", DEBUG_ID, "app.min.js.map");
      const map = file("~/app.min.js.map", "source_map", '{"version":3,"sources":["app.ts"],"mappings":""}');
      const input = { organizationId: acme.id, checksum: "1".repeat(40), bundleId: "b0b0b0b0-0000-4000-8000-000000000000", release: "1.0", dist: null, projectIds: [web.id, foreign.id], size: 1234, files: [minified, map] };
      const bundle = await artifacts.saveBundle(input);
      assert.deepEqual(bundle, {
        id: bundle.id, organizationId: acme.id, checksum: "1".repeat(40), bundleId: input.bundleId, release: "1.0", dist: null,
        fileCount: 2, size: 1234, dateUploaded: bundle.dateUploaded, projectIds: [web.id],
      });
      assert.deepEqual(await artifacts.saveBundle({ ...input, bundleId: "ignored" }), bundle);
      assert.deepEqual(await artifacts.bundleByChecksum(acme.id, "1".repeat(40)), bundle);
      assert.equal(await artifacts.bundleByChecksum(other.id, "1".repeat(40)), null);

      const found = await artifacts.byDebugId(web.id, DEBUG_ID.toUpperCase());
      assert.deepEqual(found.map((f) => [f.url, f.kind, f.sourceMapRef, f.size]), [
        ["~/app.min.js", "minified_source", "app.min.js.map", minified.bytes.length],
        ["~/app.min.js.map", "source_map", null, map.bytes.length],
      ]);
      assert.deepEqual(found[0]?.origin, { kind: "bundle", bundleId: input.bundleId });
      assert.deepEqual(await artifacts.content(found[1]!.sha1), map.bytes);
      assert.deepEqual(await artifacts.byDebugId(api.id, DEBUG_ID), []);
      assert.deepEqual(await artifacts.byDebugId(foreign.id, DEBUG_ID), []);
      assert.equal(await artifacts.hasArtifacts(web.id), true);
      assert.equal(await artifacts.hasArtifacts(api.id), false);
      // Bundles carrying a release also answer by release + URL.
      assert.deepEqual((await artifacts.byReleaseUrl(web.id, "1.0", null, ["~/app.min.js", "~/other.js"])).map((f) => f.url), ["~/app.min.js"]);
      assert.deepEqual(await artifacts.byReleaseUrl(web.id, "1.0", "dist-1", ["~/app.min.js"]), []);

      assert.deepEqual((await artifacts.listBundles(web.id)).map((b) => b.id), [bundle.id]);
      assert.deepEqual((await artifacts.bundleFiles(bundle.id)).map((f) => f.url), ["~/app.min.js", "~/app.min.js.map"]);
      assert.equal(await artifacts.deleteBundle(other.id, bundle.id), false);
      assert.equal(await artifacts.deleteBundle(acme.id, bundle.id), true);
      assert.deepEqual(await artifacts.byDebugId(web.id, DEBUG_ID), []);
      assert.equal(await artifacts.hasArtifacts(web.id), false);
    });

    it("stores nothing of a bundle whose rows fail", async () => {
      const { artifacts } = storage;
      const input = { organizationId: acme.id, checksum: "2".repeat(40), bundleId: "x", release: null, dist: null, projectIds: [web.id], size: 10, files: [file("~/a.js", "source", "a")] };
      // An organisation id that names no row: the bundle insert fails on its foreign key.
      await assert.rejects(artifacts.saveBundle({ ...input, organizationId: "999999" }));
      assert.equal(await artifacts.bundleByChecksum("999999", "2".repeat(40)), null);
      assert.deepEqual(await artifacts.byDebugId(web.id, DEBUG_ID), []);
      assert.equal(await artifacts.hasArtifacts(web.id), false);
    });

    it("stores release files by release + dist + URL, refusing a second file of the same name", async () => {
      const { artifacts } = storage;
      const bytes = Buffer.from("console.log(1)\n//# sourceMappingURL=app.js.map");
      const base = { organizationId: acme.id, projectId: web.id, release: "1.0", name: "~/app.js", kind: "minified_source" as const, debugId: null, sourceMapRef: "app.js.map", headers: { Sourcemap: "app.js.map" }, bytes, sha1: sha1(bytes) };
      const plain = await artifacts.saveReleaseFile({ ...base, dist: null });
      const withDist = await artifacts.saveReleaseFile({ ...base, dist: "42" });
      assert.deepEqual(plain, { id: plain.id, organizationId: acme.id, projectId: web.id, release: "1.0", dist: null, name: "~/app.js", kind: "minified_source", debugId: null, sha1: sha1(bytes), size: bytes.length, headers: { Sourcemap: "app.js.map" }, dateCreated: plain.dateCreated });
      await assert.rejects(artifacts.saveReleaseFile({ ...base, dist: null }), (error: unknown) => error instanceof AppError && error.code === "conflict" && /~\/app\.js/.test(error.message));
      const byNull = await artifacts.byReleaseUrl(web.id, "1.0", null, ["~/app.js"]);
      assert.deepEqual(byNull.map((f) => [f.url, f.kind, f.sourceMapRef, f.origin]), [["~/app.js", "minified_source", "app.js.map", { kind: "release_file", release: "1.0", dist: null }]]);
      assert.deepEqual((await artifacts.byReleaseUrl(web.id, "1.0", "42", ["~/app.js"])).map((f) => f.origin), [{ kind: "release_file", release: "1.0", dist: "42" }]);
      assert.deepEqual(await artifacts.byReleaseUrl(api.id, "1.0", null, ["~/app.js"]), []);
      assert.deepEqual(await artifacts.content(plain.sha1), bytes);
      assert.equal(await artifacts.hasArtifacts(web.id), true);
      assert.deepEqual((await artifacts.listReleaseFiles(web.id, "1.0")).map((f) => f.id), [plain.id, withDist.id]);
      // Without a release: every release's files of the project (the settings page), by release then name.
      const other = await artifacts.saveReleaseFile({ ...base, release: "0.9", dist: null, debugId: DEBUG_ID });
      assert.deepEqual((await artifacts.listReleaseFiles(web.id)).map((f) => [f.release, f.id, f.debugId]), [["0.9", other.id, DEBUG_ID], ["1.0", plain.id, null], ["1.0", withDist.id, null]]);
      assert.deepEqual(await artifacts.listReleaseFiles(api.id), []);
      assert.equal(await artifacts.deleteReleaseFile(web.id, other.id), true);
      assert.equal(await artifacts.deleteReleaseFile(api.id, plain.id), false);
      assert.equal(await artifacts.deleteReleaseFile(web.id, plain.id), true);
      assert.deepEqual((await artifacts.listReleaseFiles(web.id, "1.0")).map((f) => f.id), [withDist.id]);
    });
  });
}
