/**
 * The window between binding the port and Next being prepared: SDKs' ingest is served, every other
 * request gets 503 with Retry-After (never silence), /_health says "starting", and all of it turns
 * into normal answers once the UI is ready. A UI that cannot be prepared answers 503 too and the
 * process exits 1. The window is held open with the ENABLE_TEST_HOOKS hook TEST_HOOK_HOLD_UI_UNTIL
 * (server.ts), released by writing its file.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { readdressedEnvelope } from "../helpers/fixtures";
import { withStorageOf } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");
/** Any answer comes in milliseconds; a request still unanswered after this hangs, and fails the test. */
const HANG = 10_000;

interface HeldServer {
  child: ChildProcess;
  env: Record<string, string>;
  baseUrl: string;
  release: string;
  output(): string;
  /** Resolves with the line's capture once the server printed a line matching `pattern`. */
  printed(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function startHeld(): Promise<HeldServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-startup-"));
  const release = path.join(dir, "release-ui");
  const env: Record<string, string> = { PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production", DATA_DIR: path.join(dir, "data"), ENABLE_TEST_HOOKS: "true", TEST_HOOK_HOLD_UI_UNTIL: release };
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: root, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        listeners.delete(check);
        resolve(match[1] ?? match[0]);
      };
      listeners.add(check);
      void exited.then((code) => reject(new Error(`server exited with code ${code} before printing ${pattern}:\n${output}`)));
      check();
    });
  const baseUrl = await printed(/Listening at (\S+);/);
  return { child, env, baseUrl, release, output: () => output, printed, exited };
}

async function get(url: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; type: string | null; body: string }> {
  const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(HANG), ...init });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), type: response.headers.get("content-type"), body: await response.text() };
}

describe("before the UI is ready", () => {
  it("answers pages and the API with 503 + Retry-After, serves ingest, and serves everything once ready", async () => {
    const server = await startHeld();
    assert.deepEqual(await get(`${server.baseUrl}/`), {
      status: 503,
      retryAfter: "2",
      type: "text/plain; charset=utf-8",
      body: "Periscope is starting: the UI is not ready yet, retry shortly\n",
    });
    assert.deepEqual(await get(`${server.baseUrl}/api/0/organizations/`), {
      status: 503,
      retryAfter: "2",
      type: "application/json",
      body: JSON.stringify({ detail: "Periscope is starting: the UI is not ready yet, retry shortly" }),
    });
    // A request with a body is answered too, and its body does not stall the connection.
    const login = await get(`${server.baseUrl}/api/0/auth/`, { method: "POST", body: "x".repeat(100_000) });
    assert.deepEqual([login.status, login.retryAfter], [503, "2"]);
    assert.deepEqual(await get(`${server.baseUrl}/_health`), { status: 503, retryAfter: "2", type: "application/json", body: '{"status":"starting","database":"ok"}' });
    const head = await get(`${server.baseUrl}/_health`, { method: "HEAD" });
    assert.deepEqual([head.status, head.body], [503, ""]);

    // Ingest is served at once: the SDK's event is stored and acknowledged.
    const publicKey = await withStorageOf(server.env, async (storage) => {
      const [organization] = await storage.organizations.list();
      const [project] = await storage.projects.listByOrganization(organization!.id);
      const [key] = await storage.keys.listByProject(project!.id);
      return { projectId: project!.id, key: key!.publicKey };
    });
    const { body, eventId } = readdressedEnvelope("node-error-cause", { publicKey: publicKey.key });
    const ingest = await get(`${server.baseUrl}/api/${publicKey.projectId}/envelope/?sentry_key=${publicKey.key}`, { method: "POST", body: new Uint8Array(body) });
    assert.deepEqual([ingest.status, JSON.parse(ingest.body)], [200, { id: eventId }]);
    assert.doesNotMatch(server.output(), /Periscope is running at/, "the UI was still held back");

    writeFileSync(server.release, "go");
    await server.printed(/Periscope is running at (\S+)/);
    const page = await get(`${server.baseUrl}/`);
    assert.ok(page.status >= 300 && page.status < 400, `a redirect to setup or login, got ${page.status}`);
    assert.deepEqual(await get(`${server.baseUrl}/_health?probe=lb`), { status: 200, retryAfter: null, type: "application/json", body: '{"status":"ready","database":"ok"}' });
    const readyHead = await get(`${server.baseUrl}/_health`, { method: "HEAD" });
    assert.deepEqual([readyHead.status, readyHead.body], [200, ""]);
    const post = await get(`${server.baseUrl}/_health`, { method: "POST" });
    assert.deepEqual([post.status, JSON.parse(post.body)], [405, { detail: "method POST not allowed on /_health: use GET or HEAD" }]);
    assert.doesNotMatch(server.output(), /prepare\(\) must be called|Unhandled/i);
    // Periscope's own lines, not Next's.
    assert.doesNotMatch(server.output(), /Running next\.config/);
    assert.match(server.output(), new RegExp(`Database: SQLite at ${server.env.DATA_DIR}/periscope\\.sqlite\\n`));

    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0);
  });

  it("answers 503 and exits 1 when the UI cannot be prepared", async () => {
    const server = await startHeld();
    assert.equal((await get(`${server.baseUrl}/issues/`)).status, 503);
    writeFileSync(server.release, "fail");
    assert.equal(await server.exited, 1);
    assert.match(server.output(), /preparing the UI failed on purpose/);
    assert.doesNotMatch(server.output(), /Periscope is running at/);
  });
});
