/**
 * `npm start` (scripts/start.mjs) serves a bundle of server.ts instead of running it under tsx: the
 * bundled server must find what our modules locate beside their sources (migrations, package.json),
 * store what it acknowledges, serve the UI, and map its own frames back to the TypeScript sources.
 */
import Database from "better-sqlite3";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { originalPosition } from "../../src/monitoring/source-maps";
import { readdressedEnvelope } from "../helpers/fixtures";

const root = path.resolve(import.meta.dirname, "..", "..");
const bundle = path.join(root, ".next", "periscope-server", "server.mjs");

let child: ChildProcess;
let output = "";
let dataDir: string;
let baseUrl: string;
let dsn: URL;

before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "periscope-start-"));
  child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const printed = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout?.on("data", () => {
      const match = /Periscope is running at (\S+)\s+Default project DSN: (\S+)/.exec(output);
      if (match) resolve(match);
    });
    child.once("exit", (code) => reject(new Error(`npm start exited with code ${code}:\n${output}`)));
  });
  baseUrl = printed[1]!;
  dsn = new URL(printed[2]!);
});

after(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("runs the bundle in its own process, without the TypeScript loader", () => {
    assert.ok(existsSync(bundle), "the bundle was written");
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    assert.deepEqual(argv.slice(1), ["scripts/start.mjs"]);
  });

  it("prints Periscope's own lines: the database it opened, not Next's telemetry notice or config timing", () => {
    assert.match(output, new RegExp(`^Database: SQLite at ${path.join(dataDir, "periscope.sqlite")}$`, "m"));
    assert.doesNotMatch(output, /telemetry|Running next\.config/i);
  });

  it("runs its SQLite commit and checkpoint threads before the first request, so that request does not wait for them", { skip: process.platform !== "linux" && "reads /proc" }, async () => {
    const sqliteThreads = () =>
      readdirSync(`/proc/${child.pid}/task`)
        .map((tid) => readFileSync(`/proc/${child.pid}/task/${tid}/comm`, "utf8").trim())
        .filter((name) => name.startsWith("sqlite-"))
        .sort();
    // Started at once, named by the threads themselves as they load.
    for (let waited = 0; waited < 5_000 && sqliteThreads().length < 2; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(sqliteThreads(), ["sqlite-checkpt", "sqlite-commit"]);
  });

  it("stores an acknowledged event in the database its migrations created", async () => {
    const { body, eventId } = readdressedEnvelope("node-error-cause", { publicKey: dsn.username });
    const response = await fetch(`${baseUrl}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: "POST",
      body: new Uint8Array(body),
    });
    assert.deepEqual({ status: response.status, body: await response.json() }, { status: 200, body: { id: eventId } });
    const db = new Database(path.join(dataDir, "periscope.sqlite"), { readonly: true });
    try {
      assert.deepEqual(db.prepare("SELECT event_id FROM events WHERE event_id = ?").get(eventId), { event_id: eventId });
    } finally {
      db.close();
    }
  });

  it("serves the UI", async () => {
    const response = await fetch(`${baseUrl}/organizations/default/issues/`, { redirect: "manual" });
    assert.ok(response.status === 200 || (response.status >= 300 && response.status < 400), `status ${response.status}`);
    await response.arrayBuffer();
  });

  it("serves with the configuration its build resolved, so SWC's native library is never loaded", async () => {
    const maps = readFileSync(`/proc/${child.pid}/maps`, "utf8");
    assert.deepEqual(maps.split("\n").filter((line) => line.includes("next-swc")), []);
    assert.doesNotMatch(output, /next\.config\.ts/, "Next did not read next.config.ts");
    // The configuration still applies: its security headers come with every page.
    const response = await fetch(`${baseUrl}/setup`, { redirect: "manual" });
    await response.arrayBuffer();
    assert.deepEqual(
      { frame: response.headers.get("x-frame-options"), poweredBy: response.headers.get("x-powered-by") },
      { frame: "DENY", poweredBy: null },
    );
  });

  it("maps a frame of the bundle back to its TypeScript source", () => {
    const lines = readFileSync(bundle, "utf8").split("\n");
    const index = lines.findIndex((line) => line.startsWith("async function handleIngest("));
    assert.ok(index >= 0, "handleIngest is in the bundle");
    const position = originalPosition(bundle, index + 1, 1, root);
    assert.deepEqual(
      position && { filename: position.filename, function: position.function, in_app: position.in_app },
      { filename: path.join("src", "ingest", "http.ts"), function: "handleIngest", in_app: true },
    );
  });
});
