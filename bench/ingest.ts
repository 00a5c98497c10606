/**
 * `npm run bench [-- --seconds 10 --connections 32]`
 *
 * Drives the ingest door with error envelopes captured from the real SDKs over concurrent keep-alive
 * connections, and a bare node:http server with the same bodies in the same run. The figure is the
 * ratio: Periscope's durable events/s over the bare server's requests/s. Afterwards every
 * acknowledged event id is looked up in the database, so "accepted" means committed.
 */
import Database from "better-sqlite3";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { makeTemplate, percentile, runLoad, type LoadResult } from "./load";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, connections: { type: "string", default: "32" } },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);

const FIXTURES = ["node-error-cause", "node-message", "node-fingerprint", "browser-uncaught-error"];

function startProcess(argv: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    });
    child.once("exit", (code) => reject(new Error(`process exited (${code}) before it was ready:\n${output}`)));
  });
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function row(name: string, result: LoadResult, rssMb: number, durable: number | null) {
  return {
    server: name,
    "sent/s": Math.round(result.sent / result.seconds),
    "accepted/s": Math.round(result.accepted / result.seconds),
    "durable/s": durable === null ? "-" : Math.round(durable / result.seconds),
    rejected: JSON.stringify(result.rejected),
    "p50 ms": percentile(result.latenciesMs, 50).toFixed(1),
    "p99 ms": percentile(result.latenciesMs, 99).toFixed(1),
    "peak RSS MB": Math.round(rssMb),
  };
}

async function main() {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    spawnSync("npx", ["next", "build"], { cwd: root, stdio: "inherit" });
  }
  const templates = FIXTURES.map((name) =>
    makeTemplate(readFileSync(path.join(root, "tests", "fixtures", "envelopes", `${name}.envelope`))),
  );
  const sizes = FIXTURES.map((name) => readFileSync(path.join(root, "tests", "fixtures", "envelopes", `${name}.envelope`)).length);
  console.log(`bench: ${seconds}s per server, ${connections} connections, envelopes ${FIXTURES.join(", ")} (${sizes.join(", ")} bytes)`);

  const baseline = await startProcess(["--import", "tsx", "bench/baseline-server.ts"], {}, /listening on (\d+)/);
  const baselineResult = await runLoad({ url: `http://127.0.0.1:${baseline.match[1]}/api/1/envelope/`, templates, connections, seconds });
  const baselineRss = peakRssMb(baseline.child.pid!);
  await stop(baseline.child);

  const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-bench-"));
  const periscope = await startProcess(
    ["--import", "tsx", "server.ts"],
    { PORT: "0", DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "info" },
    /Default project DSN: (\S+)/,
  );
  const dsn = new URL(periscope.match[1]!);
  const url = `http://${dsn.host}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}&sentry_version=7`;
  const result = await runLoad({ url, templates, connections, seconds });
  const rss = peakRssMb(periscope.child.pid!);
  await stop(periscope.child);

  const db = new Database(path.join(dataDir, "periscope.sqlite"), { readonly: true });
  const has = db.prepare<[string], { n: number }>("SELECT 1 AS n FROM events WHERE event_id = ?");
  const missing = result.acceptedIds.filter((id) => !has.get(id)).length;
  const stored = (db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
  const issues = (db.prepare("SELECT COUNT(*) AS n FROM issues").get() as { n: number }).n;
  db.close();
  rmSync(dataDir, { recursive: true, force: true });

  console.table([row("bare node:http", baselineResult, baselineRss, null), row("periscope (sqlite)", result, rss, stored)]);
  const ratio = result.accepted / result.seconds / (baselineResult.sent / baselineResult.seconds);
  console.log(`ratio periscope durable/s ÷ bare node:http req/s: ${ratio.toFixed(3)}`);
  console.log(`acknowledged ${result.accepted}, stored ${stored} events in ${issues} issues, acknowledged but missing: ${missing}`);
  if (missing > 0) process.exitCode = 1;
}

await main();
