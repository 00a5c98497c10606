/**
 * The real sentry-cli 3.x (npm @sentry/cli) against a real Periscope, on each engine: auth info,
 * releases, commits, deploys, `sourcemaps inject` + `sourcemaps upload` of an esbuild bundle, the
 * older release-file upload, and bad input (each with its status and message, nothing stored).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { strToU8, zipSync } from "fflate";
import type { Storage } from "../../src/storage/types";
import { tokenOf } from "../helpers/accounts";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, withBearer, type TestServer } from "../helpers/server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");
const SENTRY_CLI = path.join(root, "node_modules", ".bin", "sentry-cli");
const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");
/** Small, so that the oversized cases stay small too; the esbuild bundle is a few KiB. */
const MAX_ARTIFACT_BYTES = 256 * 1024;

interface Cli {
  stdout: string;
  stderr: string;
  code: number;
}

function suite(engine: "sqlite" | "postgres"): void {
  describe(`sentry-cli against Periscope: ${engine}`, () => {
    let server: TestServer;
    let schema: TestSchema | null = null;
    let work: string;
    let projectSlug: string;

    const cli = async (args: string[], token = server.ownerToken, cwd = work): Promise<Cli> => {
      try {
        const { stdout, stderr } = await run(SENTRY_CLI, args, {
          cwd,
          env: {
            NODE_ENV: "test",
            PATH: process.env.PATH ?? "",
            HOME: work,
            SENTRY_URL: server.baseUrl,
            SENTRY_AUTH_TOKEN: token,
            SENTRY_ORG: server.organizationSlug,
            SENTRY_PROJECT: projectSlug,
            SENTRY_LOAD_DOTENV: "0",
            SENTRY_LOG_LEVEL: "warn",
          },
          timeout: 60_000,
          encoding: "utf8",
        });
        return { stdout, stderr, code: 0 };
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; code?: number };
        return { stdout: failed.stdout ?? "", stderr: failed.stderr ?? "", code: typeof failed.code === "number" ? failed.code : 1 };
      }
    };
    const ok = async (args: string[]): Promise<string> => {
      const result = await cli(args);
      assert.equal(result.code, 0, `sentry-cli ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}\n${server.output().slice(-3000)}`);
      return result.stdout;
    };
    const storage = <T>(fn: (s: Storage) => Promise<T>) => server.withStorage(fn);
    const api = async (apiPath: string, init: RequestInit = {}, token = server.ownerToken) => {
      const response = await fetch(`${server.baseUrl}${apiPath}`, withBearer(token, init));
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    };
    const postJson = (apiPath: string, body: unknown, token?: string) =>
      api(apiPath, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, token);
    const org = () => `/api/0/organizations/${server.organizationSlug}`;
    const uploadChunks = (chunks: { name: string; bytes: Uint8Array; gzip?: boolean }[]) => {
      const form = new FormData();
      for (const chunk of chunks) form.append(chunk.gzip ? "file_gzip" : "file", new Blob([new Uint8Array(chunk.gzip ? gzipSync(chunk.bytes) : chunk.bytes)]), chunk.name);
      return api(`${org()}/chunk-upload/`, { method: "POST", body: form });
    };

    before(async () => {
      work = mkdtempSync(path.join(tmpdir(), "periscope-sentry-cli-"));
      if (engine === "postgres") schema = await freshSchema();
      server = await startServer({ MAX_ARTIFACT_BYTES: String(MAX_ARTIFACT_BYTES), ...(schema ? { DATABASE_URL: schema.url } : {}) });
      const projects = (await api(`${org()}/projects/`)).body as { id: string; slug: string }[];
      projectSlug = projects.find((project) => project.id === server.projectId)!.slug;
    });
    after(async () => {
      await server?.stop();
      await schema?.drop();
      rmSync(work, { recursive: true, force: true });
    });

    it("info: authenticates the token and lists its scopes", async () => {
      const out = await ok(["info"]);
      assert.match(out, /User: owner@example\.com/);
      assert.match(out, /- project:releases/);
    });

    it("releases new / finalize / list / info, deploys new / list", async () => {
      assert.match(await ok(["releases", "new", "web@1.0.0"]), /Created release web@1\.0\.0/);
      const listed = await ok(["releases", "list"]);
      assert.match(listed, /web@1\.0\.0/);
      assert.match(listed, /\(unreleased\)/);
      assert.match(await ok(["releases", "finalize", "web@1.0.0"]), /Finalized release web@1\.0\.0/);
      const release = await storage((s) => s.releases.get("1", "web@1.0.0"));
      assert.ok(release?.dateReleased && Math.abs(release.dateReleased - Date.now()) < 120_000, JSON.stringify(release));
      assert.deepEqual(release.projectIds, [server.projectId]);
      assert.doesNotMatch(await ok(["releases", "list"]), /unreleased/);

      assert.match(await ok(["deploys", "new", "--release", "web@1.0.0", "-e", "production", "-n", "blue"]), /Created new deploy blue for 'production'/);
      assert.match(await ok(["deploys", "list", "--release", "web@1.0.0"]), /production\s*\|\s*blue/);
      const deploys = (await api(`${org()}/releases/web@1.0.0/deploys/`)).body as { environment: string; name: string }[];
      assert.deepEqual(deploys.map((deploy) => [deploy.environment, deploy.name]), [["production", "blue"]]);
      const detail = (await api(`${org()}/releases/web@1.0.0/`)).body as { lastDeploy: { environment: string }; projects: { slug: string }[] };
      assert.equal(detail.lastDeploy.environment, "production");
      assert.deepEqual(detail.projects.map((project) => project.slug), [projectSlug]);
    });

    it("set-commits: --local from a git checkout, then --commit REPO@SHA against the known repository", async () => {
      const repo = path.join(work, "repo");
      const git = (...args: string[]) => run("git", args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" } });
      await run("git", ["init", "-q", repo]);
      await git("remote", "add", "origin", "https://github.com/acme/web.git");
      writeFileSync(path.join(repo, "a.txt"), "a");
      await git("add", "a.txt");
      await git("commit", "-q", "-m", "first commit");
      writeFileSync(path.join(repo, "b.txt"), "b");
      await git("add", "b.txt");
      await git("commit", "-q", "-m", "second commit");
      const head = (await git("rev-parse", "HEAD")).stdout.trim();
      await ok(["releases", "new", "web@1.1.0"]);
      const local = await cli(["releases", "set-commits", "web@1.1.0", "--local"], server.ownerToken, repo);
      assert.equal(local.code, 0, local.stderr);
      const commits = (await api(`${org()}/releases/web@1.1.0/commits/`)).body as { id: string; message: string; repository: { name: string }; author: { email: string } }[];
      // sentry-cli names the repository after the git remote it read the commits from.
      assert.deepEqual(commits.map((commit) => [commit.message.trim(), commit.repository.name, commit.author.email]), [
        ["second commit", "origin", "ada@example.com"],
        ["first commit", "origin", "ada@example.com"],
      ]);
      assert.equal(commits[0]?.id, head);

      // A repository can also be registered up front, as Sentry's integrations would.
      const registered = await postJson(`${org()}/repos/`, { name: "acme/web", url: "https://github.com/acme/web" });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      await ok(["releases", "new", "web@1.2.0"]);
      await ok(["releases", "set-commits", "web@1.2.0", "--commit", `acme/web@${head.slice(0, 12)}..abcdef123456`]);
      const refCommits = (await api(`${org()}/releases/web@1.2.0/commits/`)).body as { id: string }[];
      assert.deepEqual(refCommits.map((commit) => commit.id), ["abcdef123456"]);
      const unknownRepo = await cli(["releases", "set-commits", "web@1.2.0", "--commit", "acme/nope@abc123"]);
      assert.notEqual(unknownRepo.code, 0);
      assert.match(unknownRepo.stderr, /Unknown repo 'acme\/nope'/);
    });

    it("sourcemaps inject + upload: the esbuild bundle's map is found by its debug id", async () => {
      const dist = path.join(work, "dist");
      await build({
        entryPoints: [path.join(root, "tests/fixtures/sourcemap-app/app.ts")],
        bundle: true, minify: true, sourcemap: true, format: "iife", outfile: path.join(dist, "app.min.js"), logLevel: "silent",
      });
      await ok(["sourcemaps", "inject", dist]);
      const minified = readFileSync(path.join(dist, "app.min.js"), "utf8");
      const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(minified)?.[1];
      assert.ok(debugId, minified.slice(-300));
      const upload = await ok(["sourcemaps", "upload", "--release", "web@2.0.0", dist]);
      assert.match(upload, /File processing complete/);

      const found = await storage((s) => s.artifacts.byDebugId(server.projectId, debugId));
      assert.deepEqual(found.map((f) => [f.url, f.kind, f.debugId]).sort(), [
        ["~/app.min.js", "minified_source", debugId],
        ["~/app.min.js.map", "source_map", debugId],
      ]);
      const map = found.find((f) => f.kind === "source_map")!;
      const bytes = await storage((s) => s.artifacts.content(map.sha1));
      const parsed = JSON.parse(bytes!.toString("utf8")) as { sources: string[]; names: string[] };
      assert.ok(parsed.sources.some((source) => source.endsWith("sourcemap-app/app.ts")), JSON.stringify(parsed.sources));
      assert.ok(parsed.names.includes("checkoutButtonClicked"));
      assert.equal(found.find((f) => f.kind === "minified_source")!.sourceMapRef, "app.min.js.map");
      const [bundle] = await storage((s) => s.artifacts.listBundles(server.projectId));
      assert.equal(bundle?.release, "web@2.0.0");
      assert.equal(bundle?.fileCount, 2);

      // The same upload again: nothing to send, and still one bundle.
      assert.match(await ok(["sourcemaps", "upload", "--release", "web@2.0.0", dist]), /File processing complete/);
      assert.equal((await storage((s) => s.artifacts.listBundles(server.projectId))).length, 1);
    });

    it("release files (the older upload): stored by release + URL and found by byReleaseUrl", async () => {
      await ok(["releases", "new", "web@3.0.0"]);
      const form = new FormData();
      form.append("file", new Blob(["function a(){}\n//# sourceMappingURL=legacy.min.js.map\n"]), "legacy.min.js");
      form.append("name", "~/static/legacy.min.js");
      form.append("header", "Content-Type: application/javascript");
      const answer = await api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/web@3.0.0/files/`, { method: "POST", body: form });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal((answer.body as { name: string }).name, "~/static/legacy.min.js");
      const again = await api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/web@3.0.0/files/`, { method: "POST", body: form });
      assert.equal(again.status, 409);
      const found = await storage((s) => s.artifacts.byReleaseUrl(server.projectId, "web@3.0.0", null, ["~/static/legacy.min.js"]));
      assert.deepEqual(found.map((f) => [f.url, f.kind, f.sourceMapRef, f.origin]), [["~/static/legacy.min.js", "minified_source", "legacy.min.js.map", { kind: "release_file", release: "web@3.0.0", dist: null }]]);

      const corrupt = new FormData();
      corrupt.append("file", new Blob(['{"version":3,"sources":'], { type: "application/json" }), "legacy.min.js.map");
      corrupt.append("name", "~/static/legacy.min.js.map");
      const refused = await api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/web@3.0.0/files/`, { method: "POST", body: corrupt });
      assert.equal(refused.status, 400);
      assert.match((refused.body as { detail: string }).detail, /legacy\.min\.js\.map is not a valid source map/);
      assert.deepEqual(await storage((s) => s.artifacts.byReleaseUrl(server.projectId, "web@3.0.0", null, ["~/static/legacy.min.js.map"])), []);

      const huge = new FormData();
      huge.append("file", new Blob([randomBytes(MAX_ARTIFACT_BYTES + 1)]), "huge.js");
      const tooLarge = await api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/web@3.0.0/files/`, { method: "POST", body: huge });
      assert.equal(tooLarge.status, 413);
      assert.match((tooLarge.body as { detail: string }).detail, /larger than/);
    });

    it("chunk upload: a wrong checksum is a 400 naming the chunk, and nothing of the request is stored", async () => {
      const options = (await api(`${org()}/chunk-upload/`)).body as { chunkSize: number; hashAlgorithm: string; compression: string[]; url: string };
      assert.deepEqual([options.hashAlgorithm, options.compression, options.url], ["sha1", ["gzip"], `/api/0/organizations/${server.organizationSlug}/chunk-upload/`]);
      const good = Buffer.from("a good chunk");
      const bad = Buffer.from("a bad chunk");
      const wrongName = sha1(Buffer.from("something else"));
      const answer = await uploadChunks([{ name: sha1(good), bytes: good, gzip: true }, { name: wrongName, bytes: bad }]);
      assert.equal(answer.status, 400);
      assert.match((answer.body as { detail: string }).detail, new RegExp(`chunk ${wrongName}: checksum mismatch, its content has SHA-1 ${sha1(bad)}`));
      const assembled = await postJson(`${org()}/artifactbundle/assemble/`, { checksum: sha1(good), chunks: [sha1(good)], projects: [projectSlug] });
      assert.deepEqual(assembled.body, { state: "not_found", missingChunks: [sha1(good)], detail: null });
    });

    it("assemble: unknown chunks are listed as missing; a corrupt zip, a corrupt map and an oversized bundle are errors that store nothing", async () => {
      const unknown = [sha1(Buffer.from("never uploaded 1")), sha1(Buffer.from("never uploaded 2"))];
      const missing = await postJson(`${org()}/artifactbundle/assemble/`, { checksum: sha1(Buffer.from("x")), chunks: unknown, projects: [projectSlug] });
      assert.equal(missing.status, 200);
      assert.deepEqual(missing.body, { state: "not_found", missingChunks: unknown, detail: null });

      const bundlesBefore = (await storage((s) => s.artifacts.listBundles(server.projectId))).length;
      const assembleOne = async (bytes: Uint8Array) => {
        assert.equal((await uploadChunks([{ name: sha1(bytes), bytes, gzip: true }])).status, 200);
        return postJson(`${org()}/artifactbundle/assemble/`, { checksum: sha1(bytes), chunks: [sha1(bytes)], projects: [projectSlug] });
      };
      const notZip = randomBytes(2000);
      const corruptZip = await assembleOne(notZip);
      assert.equal((corruptZip.body as { state: string }).state, "error");
      assert.match((corruptZip.body as { detail: string }).detail, /not a valid artifact bundle: the zip cannot be read/);

      const badMap = zipSync({
        "manifest.json": strToU8(JSON.stringify({ files: {
          "files/_/_/x.min.js": { url: "~/x.min.js", type: "minified_source", headers: { "debug-id": "11111111-2222-4333-8444-555555555555", Sourcemap: "x.min.js.map" } },
          "files/_/_/x.min.js.map": { url: "~/x.min.js.map", type: "source_map", headers: { "debug-id": "11111111-2222-4333-8444-555555555555" } },
        } })),
        "files/_/_/x.min.js": strToU8("x()"),
        "files/_/_/x.min.js.map": strToU8('{"version":3,"mappings":'),
      });
      const corruptMap = await assembleOne(badMap);
      assert.deepEqual(corruptMap.body, { state: "error", missingChunks: [], detail: "files/_/_/x.min.js.map (~/x.min.js.map) is not a valid source map: " + (corruptMap.body as { detail: string }).detail.split("source map: ")[1] });
      assert.match((corruptMap.body as { detail: string }).detail, /x\.min\.js\.map\) is not a valid source map/);
      assert.deepEqual(await storage((s) => s.artifacts.byDebugId(server.projectId, "11111111-2222-4333-8444-555555555555")), []);

      const big = [randomBytes(MAX_ARTIFACT_BYTES / 2 + 1), randomBytes(MAX_ARTIFACT_BYTES / 2 + 1)];
      assert.equal((await uploadChunks(big.map((bytes) => ({ name: sha1(bytes), bytes, gzip: true })))).status, 200);
      const oversized = await postJson(`${org()}/artifactbundle/assemble/`, { checksum: sha1(Buffer.concat(big)), chunks: big.map((bytes) => sha1(bytes)), projects: [projectSlug] });
      assert.deepEqual(oversized.body, { state: "error", missingChunks: [], detail: `the bundle is larger than ${MAX_ARTIFACT_BYTES} bytes (MAX_ARTIFACT_BYTES)` });
      assert.equal((await storage((s) => s.artifacts.listBundles(server.projectId))).length, bundlesBefore);

      const malformed = await postJson(`${org()}/artifactbundle/assemble/`, { checksum: "nope", chunks: [], projects: [projectSlug] });
      assert.equal(malformed.status, 400);
      assert.match((malformed.body as { detail: string }).detail, /checksum: must be a SHA-1/);
    });

    it("a token without project:releases gets 403; an unknown organisation 404", async () => {
      const reader = await storage(async (s) => tokenOf(s, (await s.accounts.users.getByEmail("owner@example.com"))!, ["event:read", "org:read"]));
      const token = reader.kind === "token" ? reader.token : "";
      const refused = await postJson(`${org()}/releases/`, { version: "nope@1", projects: [projectSlug] }, token);
      assert.equal(refused.status, 403);
      assert.match((refused.body as { detail: string }).detail, /needs the project:releases or project:write scope/);
      const viaCli = await cli(["releases", "new", "nope@1"], token);
      assert.notEqual(viaCli.code, 0);
      assert.match(viaCli.stderr, /403|permission/i);
      assert.equal(await storage((s) => s.releases.get("1", "nope@1")), null);
      const chunkRefused = await api(`${org()}/chunk-upload/`, {}, token);
      assert.equal(chunkRefused.status, 403);

      // A token made the documented way (`periscope token create`) with project:releases only.
      const made = await run(process.execPath, ["bin/periscope.js", "token", "create", "--email", "owner@example.com", "--scopes", "project:releases", "--name", "CI"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.env.DATABASE_URL ?? "" },
      });
      const releasesOnly = made.stdout.trim();
      assert.match(releasesOnly, /^sntryu_[0-9a-f]{64}$/);
      const allowed = await cli(["releases", "new", "scoped@1"], releasesOnly);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match((await cli(["info"], releasesOnly)).stdout, /Scopes:\s+- project:releases\s*$/);

      const nowhere = await api("/api/0/organizations/no-such-org/releases/");
      assert.equal(nowhere.status, 404);
      assert.match((nowhere.body as { detail: string }).detail, /organization not found/);
      const cliNowhere = await cli(["releases", "--org", "no-such-org", "list"]);
      assert.notEqual(cliNowhere.code, 0);
      assert.match(cliNowhere.stderr, /organization|not found/i);
    });

    it("implicit releases: an event's release is listed with its project, first event and new issues", async () => {
      const dsn = new URL(server.dsn);
      const eventId = randomBytes(16).toString("hex");
      const envelope = `${JSON.stringify({ event_id: eventId, dsn: server.dsn })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify({ event_id: eventId, release: "implicit@9.9.9", platform: "javascript", exception: { values: [{ type: "Error", value: "implicit release" }] } })}\n`;
      const sent = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${dsn.username}`, { method: "POST", body: envelope });
      assert.equal(sent.status, 200);
      type Listed = { version: string; newGroups: number; firstEvent: string | null; projects: { slug: string }[] };
      const listImplicit = async (): Promise<Listed | undefined> => {
        const listed = (await api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/releases/`)).body as Listed[];
        return listed.find((release) => release.version === "implicit@9.9.9");
      };
      let found = await listImplicit();
      for (let attempt = 0; attempt < 50 && !found; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        found = await listImplicit();
      }
      assert.ok(found);
      assert.equal(found.newGroups, 1);
      assert.ok(found.firstEvent);
      assert.deepEqual(found.projects.map((project) => project.slug), [projectSlug]);
    });
  });
}

suite("sqlite");
if (await postgresForTests("sentry-cli against Periscope: postgres")) suite("postgres");
