/**
 * `npm run bench:query [-- --events 1000000 --issues 10000 --seconds 20 --rate 1200 --ingest-connections 16 --warmup 5 --seed-cache DIR]`
 *
 * The issues list under load: seeds a SQLite data directory with N events in M issues (real SDK
 * payloads, normalised and grouped like ingest does, committed in large batches through the storage
 * interface), starts a real server on it, and measures `GET /api/0/projects/default/default/issues/`
 * latency while ingest runs at half the door's measured capacity. Prints p50/p95/p99 per sort.
 * With --seed-cache, the seeded database is kept in DIR (per events and issues) and copied from there
 * by later runs, which then skip the seeding (≈ 3 min for the defaults).
 * Ingest runs `warmup` seconds alone first: a server's first seconds of load are slower than the
 * rest (code not yet optimised by V8, cold caches), which would otherwise be the measured p99.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, cpSync, existsSync, fsyncSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseEnvelope } from "../src/ingest/envelope";
import { groupEvent } from "../src/processing/grouping";
import { normalizeEvent, userKeyOf } from "../src/processing/normalize";
import { SCOPES } from "../src/auth/scopes";
import { CLI_ACTOR } from "../src/services/accounts/actor";
import { createApiToken } from "../src/services/accounts/tokens";
import { ensureDefaults } from "../src/services/projects/ensure-defaults";
import { createSqliteStorage } from "../src/storage/sqlite";
import type { IngestRecord } from "../src/model";
import { makeTemplate, percentile, runLoad } from "./load";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "1000000" },
    issues: { type: "string", default: "10000" },
    seconds: { type: "string", default: "20" },
    rate: { type: "string", default: "1200" },
    // Each connection waits for its answer: at 1,200/s, 16 connections leave 13 ms per request, so a
    // list query that holds the server's event loop longer puts the paced load behind its schedule.
    "ingest-connections": { type: "string", default: "16" },
    warmup: { type: "string", default: "5" },
    "seed-cache": { type: "string" },
  },
});
const EVENTS = Number(args.events);
const ISSUES = Number(args.issues);
const DAY_MS = 86_400_000;

async function seed(dataDir: string): Promise<void> {
  // Merged in every commit: a server then starts with no backlog for its first merge, as one that
  // ran before would (at most ISSUE_EVENTS_MERGE_MS of its ingest), not with a bulk load's last seconds.
  const storage = createSqliteStorage(dataDir, { issueEventsMergeMs: 0 });
  const { project } = await ensureDefaults(storage);
  const fixture = readFileSync(path.join(root, "tests", "fixtures", "envelopes", "node-error-cause.envelope"));
  const raw = JSON.parse(parseEnvelope(fixture).items[0]!.payload.toString("utf8")) as Record<string, unknown>;
  const now = Date.now();
  const base = normalizeEvent(raw, { receivedAt: now });
  const groupings = Array.from({ length: ISSUES }, (_, n) => {
    const grouping = groupEvent(base);
    return { ...grouping, hash: n.toString(16).padStart(32, "0"), title: `${grouping.title} #${n}` };
  });
  const started = performance.now();
  const batch = 5_000;
  for (let done = 0; done < EVENTS; done += batch) {
    const records: IngestRecord[] = [];
    for (let i = done; i < Math.min(EVENTS, done + batch); i++) {
      // Spread over the last 14 days, so sparklines and "last seen" sorting have real work to do.
      const timestamp = (now - Math.floor(((i * 7919) % EVENTS) / EVENTS * 14 * DAY_MS)) / 1000;
      const event = { ...base, event_id: randomBytes(16).toString("hex"), timestamp, level: i % 10 === 0 ? ("warning" as const) : base.level };
      records.push({ kind: "event", projectId: project.id, event, payload: JSON.stringify(event), grouping: groupings[(i * 31) % ISSUES]!, userKey: userKeyOf(event) });
    }
    await storage.ingest.commit(records);
    if ((done / batch) % 20 === 0) process.stdout.write(`\rseeding: ${done.toLocaleString()} / ${EVENTS.toLocaleString()} events`);
  }
  console.log(`\rseeded ${EVENTS.toLocaleString()} events in ${ISSUES.toLocaleString()} issues in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await storage.close();
}

const OWNER_EMAIL = "bench@example.com";

/** The API needs a token: one for the owner the server was started with, written beside the running server (WAL). */
async function ownerToken(dataDir: string): Promise<string> {
  const storage = createSqliteStorage(dataDir);
  try {
    let owner = await storage.accounts.users.getByEmail(OWNER_EMAIL);
    for (let wait = 0; !owner && wait < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      owner = await storage.accounts.users.getByEmail(OWNER_EMAIL);
    }
    if (!owner) throw new Error(`the server did not create its owner ${OWNER_EMAIL}`);
    return (await createApiToken(storage, CLI_ACTOR, owner, { name: "bench:query", scopes: [...SCOPES] })).token;
  } finally {
    await storage.close();
  }
}

/**
 * Started as `npm start` runs it (scripts/start.mjs): under tsx, a worker thread compiles its modules
 * when it starts, and the commit thread starts with the first commit, so the first request waited
 * ≈ 0.9 s for it.
 */
function startServer(dataDir: string): Promise<{ child: ChildProcess; dsn: URL }> {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: "0", DATA_DIR: dataDir, NODE_ENV: "production", PERISCOPE_ADMIN_EMAIL: OWNER_EMAIL, PERISCOPE_ADMIN_PASSWORD: randomBytes(24).toString("hex") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const dsn = /Default project DSN: (\S+)/.exec(output)?.[1];
      if (dsn) resolve({ child, dsn: new URL(dsn) });
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

async function measureQueries(baseUrl: string, token: string, deadline: number): Promise<Record<string, number[]>> {
  const queries: Record<string, string> = {
    "last seen": "/api/0/projects/default/default/issues/?query=is:unresolved&sort=date",
    "first seen": "/api/0/projects/default/default/issues/?query=is:unresolved&sort=new",
    events: "/api/0/projects/default/default/issues/?query=is:unresolved&sort=freq",
    "level filter": "/api/0/projects/default/default/issues/?query=is:unresolved%20level:warning&sort=date",
    "text search": "/api/0/projects/default/default/issues/?query=outer%20%23123&sort=date",
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(queries).map((name) => [name, []]));
  while (Date.now() < deadline) {
    for (const [name, url] of Object.entries(queries)) {
      const started = performance.now();
      const response = await fetch(baseUrl + url, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      times[name]!.push(performance.now() - started);
    }
  }
  return times;
}

/** Seeds dataDir, or copies a seeded database of the same size from the cache (filled on first use). */
async function seeded(dataDir: string, cacheDir: string | undefined): Promise<void> {
  if (!cacheDir) return seed(dataDir);
  const cached = path.join(path.resolve(cacheDir), `${EVENTS}-events-${ISSUES}-issues`);
  if (!existsSync(cached)) {
    const filling = `${cached}.filling`;
    rmSync(filling, { recursive: true, force: true });
    await seed(filling);
    renameSync(filling, cached);
  }
  cpSync(cached, dataDir, { recursive: true });
  // On disk before the server starts: the kernel writing back a gigabyte of copy made the server's
  // first commits' fsyncs wait up to a second.
  for (const name of readdirSync(dataDir)) {
    const fd = openSync(path.join(dataDir, name), "r");
    fsyncSync(fd);
    closeSync(fd);
  }
  console.log(`copied the seeded database from ${cached}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-query-bench-"));
try {
  await seeded(dataDir, args["seed-cache"]);
  const { child, dsn } = await startServer(dataDir);
  const baseUrl = `http://${dsn.host}`;
  const seconds = Number(args.seconds);
  const template = makeTemplate(
    Buffer.from(readFileSync(path.join(root, "tests", "fixtures", "envelopes", "node-error-cause.envelope"), "latin1").split("0123456789abcdef0123456789abcdef").join(dsn.username), "latin1"),
  );
  const load = (loadSeconds: number) =>
    runLoad({
      url: `${baseUrl}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`,
      templates: [template],
      connections: Number(args["ingest-connections"]),
      seconds: loadSeconds,
      rate: Number(args.rate),
    });
  const warmup = await load(Number(args.warmup));
  const ingest = load(seconds);
  const times = await measureQueries(baseUrl, await ownerToken(dataDir), Date.now() + seconds * 1000);
  const measured = await ingest;
  console.table(
    Object.fromEntries(
      Object.entries(times).map(([name, values]) => [
        name,
        { requests: values.length, "p50 ms": percentile(values, 50).toFixed(1), "p95 ms": percentile(values, 95).toFixed(1), "p99 ms": percentile(values, 99).toFixed(1) },
      ]),
    ),
  );
  console.log(
    `ingest meanwhile: ${Math.round(measured.accepted / measured.seconds)} events/s accepted (target rate ${args.rate}/s), ` +
      `ack p50 ${percentile(measured.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(measured.latenciesMs, 99).toFixed(1)} ms, ` +
      `rejected ${JSON.stringify(measured.rejected)}; in the ${args.warmup} s warm-up before, alone: ` +
      `p99 ${percentile(warmup.latenciesMs, 99).toFixed(1)} ms, max ${Math.max(0, ...warmup.latenciesMs).toFixed(1)} ms`,
  );
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
