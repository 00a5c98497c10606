/**
 * `npm run bench [-- --seconds 10 --connections 32 --engine sqlite|postgres|both --ingest commit-thread,main --mix errors|realistic|sourcemaps --rate N --warmup 3 --idle 10 --cpu-prof DIR --keep-data --compare DIR --pairs 3 --disk-probe 5 --probes 3 --map-mb 5]`
 *
 * Drives the ingest door with error envelopes captured from the real SDKs over concurrent keep-alive
 * connections, and a bare node:http server with the same bodies in the same run. The figure is the
 * ratio: Periscope's durable events/s (and acknowledged requests/s, the same for error envelopes) over
 * the bare server's requests/s, one row per storage engine.
 * Afterwards every acknowledged event id is looked up in the database, so "accepted" means committed.
 * Periscope is started as `npm start` runs it (scripts/start.mjs), and its idle RSS is read `--idle`
 * seconds after it is ready, before any load. `--ingest` picks where SQLite commits run, one row per
 * entry: on their own thread (commit-thread, the default, as `npm start` runs it) or inline on the
 * main thread (main); on PostgreSQL both are the one PostgreSQL topology (src/config.ts IngestTopology).
 * After each Periscope row it prints each server thread's busy share of one core over the run (on
 * Linux, by the names the server gives its threads: src/thread-name.ts), to show which stage is the limit.
 * `--compare DIR` alternates this checkout's server with the one in DIR (another checkout with its
 * own node_modules, such as a git worktree of the build to compare against), `--pairs` times, each
 * pair in the other order from the last, and prints the ratios per pair and their median: on a
 * machine whose runs differ by several per cent, only alternated pairs tell two builds apart.
 * `--disk-probe` seconds (0: none) of back-to-back fsyncs after the bare server (bench/disk.ts) print
 * how the disk answered in this run: its pauses are the acknowledgements' pauses.
 * `--mix sourcemaps` measures source-map resolution on one server per engine (runSourceMaps): the
 * error envelopes with no maps uploaded, then `--probes` esbuild bundles with maps of `--map-mb` MiB
 * uploaded by the real sentry-cli, each bundle's first event amid paced plain events (is the door
 * held up while the map is parsed?), then plain and bundle events in turn with the maps cached.
 * `--scrub-rules 0,20,20,0`: one row per entry, each with that many advanced data scrubbing rules on the
 * project (bench/scrub-rules.ts; default scrubbing is always on), alternated in the order given.
 * `--quotas none,on,on,none`: likewise one row per entry, with or without quotas on the project and
 * its organisation (bench/quotas.ts); with `--compare`, the first entry applies to both builds.
 * PostgreSQL: PERISCOPE_BENCH_DATABASE_URL, else the test database (a fresh schema, dropped after);
 * `--engine` defaults to both when that server is reachable, else sqlite.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { makeTemplate, median, openConnections, paceWarning, percentile, ratesBySlice, runLoad, SLICE_SECONDS, type LoadResult, type Template } from "./load";
import { realisticMix } from "./mix";
import { MAX_SCRUB_RULES, putScrubRules } from "./scrub-rules";
import { putBenchQuotas, QUOTA_VARIANTS, type QuotaVariant } from "./quotas";
import { probeFsync, SLOW_FSYNC_MS } from "./disk";
import { buildBundle, type BuiltBundle } from "./sourcemaps/bundle";
import { alternate, bundleEventTemplates, namedPositions } from "./sourcemaps/events";
import { coldMapProbe, probeLine } from "./sourcemaps/probe";
import { BENCH_OWNER, createToken, sentryCliUpload, slugsOf } from "./sourcemaps/upload";
import { checkStoredEvents } from "./sourcemaps/check";
import { CHECKPOINT_THREAD_NAME } from "../src/storage/sqlite/checkpoint.protocol";
import { COMMIT_THREAD_NAME } from "../src/storage/sqlite/commit.protocol";
import { SOURCEMAP_THREAD_NAME } from "../src/symbolication/sourcemap.protocol";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    engine: { type: "string" },
    ingest: { type: "string", default: "commit-thread" },
    mix: { type: "string", default: "errors" },
    rate: { type: "string" },
    warmup: { type: "string", default: "3" },
    issues: { type: "string", default: "2000" },
    idle: { type: "string", default: "10" },
    "cpu-prof": { type: "string" },
    "keep-data": { type: "boolean", default: false },
    compare: { type: "string" },
    pairs: { type: "string", default: "3" },
    "disk-probe": { type: "string", default: "5" },
    probes: { type: "string", default: "3" },
    "map-mb": { type: "string", default: "5" },
    "scrub-rules": { type: "string", default: "0" },
    quotas: { type: "string", default: "none" },
  },
});
const DATABASE_URL =
  process.env.PERISCOPE_BENCH_DATABASE_URL || process.env.PERISCOPE_TEST_DATABASE_URL || "postgres://periscope:periscope@127.0.0.1:5432/periscope_test";
const seconds = Number(args.seconds);
if (!(seconds > 0)) throw new Error(`--seconds takes a number of seconds above 0, not "${args.seconds}"`);
const connections = Number(args.connections);

const FIXTURES = ["node-error-cause", "node-message", "node-fingerprint", "browser-uncaught-error"];

function startProcess(argv: string[], env: Record<string, string>, ready: RegExp, cwd = root): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, argv, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
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

function statusMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const peakRssMb = (pid: number) => statusMb(pid, "VmHWM");

/** User + system CPU seconds of a /proc stat line (clock ticks of 10 ms). */
function statCpuSeconds(stat: string): number {
  // The command name in parentheses may contain spaces; the fields after it are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
const cpuSeconds = (pid: number): number => statCpuSeconds(readFileSync(`/proc/${pid}/stat`, "utf8"));

/** Threads the server names itself (src/thread-name.ts); the rest are V8's and libuv's helpers. */
const NAMED_THREADS = new Set([COMMIT_THREAD_NAME, CHECKPOINT_THREAD_NAME, SOURCEMAP_THREAD_NAME]);

/** CPU seconds so far per thread of a process: "main", each named thread, and "other" for the rest together. */
function threadCpuSeconds(pid: number): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // a thread that ended while we listed them
    }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const name = Number(tid) === pid ? "main" : NAMED_THREADS.has(comm) ? comm : "other";
    seconds.set(name, (seconds.get(name) ?? 0) + statCpuSeconds(stat));
  }
  return seconds;
}

/** Idle and total clock ticks of the whole machine so far (first line of /proc/stat: idle + iowait). */
function machineTicks(): { idle: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, value) => sum + value, 0) };
}

interface CpuFigures {
  /** The server's CPU per answered request: less noisy than the rate itself. */
  cpuUsPerRequest: number;
  /** This process's (the load generator's) CPU per request. */
  loadCpuUsPerRequest: number;
  /** Share of both cores nobody used: near 0 means the machine, not one thread, is the limit. */
  machineIdlePercent: number;
  /** Each server thread's busy share of one core over the run ("main", named threads, "other"): which stage is the limit. */
  threadCpuPercent: Map<string, number>;
}

/** CPU figures of the measured run. */
async function measureCpu<T extends LoadResult>(pid: number, run: Promise<T>): Promise<T & CpuFigures> {
  const before = { server: cpuSeconds(pid), threads: threadCpuSeconds(pid), load: process.cpuUsage(), machine: machineTicks(), at: performance.now() };
  const result = await run;
  const wallSeconds = (performance.now() - before.at) / 1000;
  // main first, the helpers ("other") last.
  const order = (name: string) => (name === "main" ? 0 : name === "other" ? 2 : 1);
  const threadCpuPercent = new Map(
    [...threadCpuSeconds(pid)]
      .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
      .map(([name, seconds]) => [name, (100 * (seconds - (before.threads.get(name) ?? 0))) / wallSeconds] as const),
  );
  const load = process.cpuUsage(before.load);
  const machine = machineTicks();
  const requests = Math.max(1, result.sent);
  return {
    ...result,
    cpuUsPerRequest: ((cpuSeconds(pid) - before.server) * 1e6) / requests,
    loadCpuUsPerRequest: (load.user + load.system) / requests,
    machineIdlePercent: (100 * (machine.idle - before.machine.idle)) / Math.max(1, machine.total - before.machine.total),
    threadCpuPercent,
  };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function row(name: string, result: LoadResult & CpuFigures, rssMb: number, durable: number | null, idleRssMb: number | null) {
  return {
    server: name,
    "sent/s": Math.round(result.sent / result.seconds),
    "accepted/s": Math.round(result.accepted / result.seconds),
    "durable/s": durable === null ? "-" : Math.round(durable / result.seconds),
    rejected: JSON.stringify(result.rejected),
    "p50 ms": percentile(result.latenciesMs, 50).toFixed(1),
    "p99 ms": percentile(result.latenciesMs, 99).toFixed(1),
    "CPU µs/req": Math.round(result.cpuUsPerRequest),
    "load gen µs/req": Math.round(result.loadCpuUsPerRequest),
    "idle %": Math.round(result.machineIdlePercent),
    "peak RSS MB": Math.round(rssMb),
    "idle RSS MB": idleRssMb === null ? "-" : Math.round(idleRssMb),
  };
}

type Engine = "sqlite" | "postgres";

interface Verification {
  stored: number;
  issues: number;
  missing: number;
}

/** Where one engine's run keeps its data: the server's env, the check of acknowledged ids, cleanup. */
interface EngineTarget {
  env: Record<string, string>;
  verify(acceptedIds: string[]): Promise<Verification>;
  cleanup(): Promise<void>;
}

async function sqliteTarget(): Promise<EngineTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-bench-"));
  return {
    env: { DATA_DIR: dataDir },
    async verify(acceptedIds) {
      const db = new Database(path.join(dataDir, "periscope.sqlite"), { readonly: true });
      // One pass over the stored ids: a lookup per id by event_id alone cannot use the (project_id,
      // event_id) key and scanned the table once per id (minutes after a 60 s run).
      const rows = db.prepare<[], { event_id: string }>("SELECT event_id FROM events").all();
      const storedIds = new Set(rows.map((row) => row.event_id));
      const missing = acceptedIds.filter((id) => !storedIds.has(id)).length;
      const stored = (db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
      const issues = (db.prepare("SELECT COUNT(*) AS n FROM issues").get() as { n: number }).n;
      db.close();
      return { stored, issues, missing };
    },
    async cleanup() {
      // --keep-data: leave the SQLite file for inspection (which tables and indexes the run grew).
      if (args["keep-data"]) return console.log(`bench: SQLite data kept in ${dataDir}`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(): Promise<EngineTarget> {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    async verify(acceptedIds) {
      const found = await admin.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM ${schema}.events WHERE event_id = ANY($1::text[])`,
        [acceptedIds],
      );
      const stored = await admin.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema}.events`);
      const issues = await admin.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema}.issues`);
      return {
        stored: Number(stored.rows[0]!.n),
        issues: Number(issues.rows[0]!.n),
        missing: acceptedIds.length - Number(found.rows[0]!.n),
      };
    },
    async cleanup() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/**
 * The bare node:http server's run, kept as its figures only: its latencies and a million accepted
 * ids would otherwise stay live through the next runs, and V8 would mark them at every major GC on
 * the cores the measured server uses.
 */
async function measureBaseline(templates: Template[]) {
  const baseline = await startProcess(["--import", "tsx", "bench/baseline-server.ts"], {}, /listening on (\d+)/);
  const url = `http://127.0.0.1:${baseline.match[1]}/api/1/envelope/`;
  const result = await warmedRun(baseline.child.pid!, { url, templates, connections });
  const rss = peakRssMb(baseline.child.pid!);
  await stop(baseline.child);
  return { row: row("bare node:http", result, rss, null, null), rate: result.sent / result.seconds };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Where SQLite commits run (src/config.ts IngestTopology): each is the server environment that
 * selects it. PostgreSQL has one topology and refuses SQLite's settings, so there it gets none.
 */
const INGEST_MODES = {
  // Everything on the main thread, the commit included.
  main: { SQLITE_COMMIT_THREAD: "false" },
  // The default: SQLite commits on their own thread.
  "commit-thread": {},
} as const;
type IngestMode = keyof typeof INGEST_MODES;

/** `--ingest main,commit-thread,main,commit-thread`: one run per entry, in that order (repeats alternate pairs). */
function ingestModes(): IngestMode[] {
  const modes = args.ingest.split(",").map((mode) => mode.trim());
  for (const mode of modes) {
    if (!(mode in INGEST_MODES)) throw new Error(`--ingest takes a comma-separated list of ${Object.keys(INGEST_MODES).join(", ")}, not "${mode}"`);
  }
  return modes as IngestMode[];
}

async function engines(): Promise<Engine[]> {
  const requested = args.engine ?? ((await postgresReachable()) ? "both" : "sqlite");
  if (requested === "both") return ["sqlite", "postgres"];
  if (requested === "sqlite" || requested === "postgres") return [requested];
  throw new Error(`--engine must be sqlite, postgres or both, not "${requested}"`);
}

/**
 * A few seconds of the same load before measuring: the first second after start pays for JIT
 * compilation and lazily loaded code (one run measured 390 requests over 50 ms in second 0, none after).
 */
async function warmUp(options: Omit<Parameters<typeof runLoad>[0], "seconds">): Promise<void> {
  const seconds = Number(args.warmup);
  if (seconds > 0) await runLoad({ ...options, seconds });
}

/**
 * The warm-up, then the measured run over the same connections (openConnections says why), with
 * the server process's CPU measured over the run; the connections are closed however it ends.
 */
async function warmedRun(pid: number, options: Omit<Parameters<typeof runLoad>[0], "seconds" | "over">) {
  const over = openConnections(options.url, options.connections);
  try {
    await warmUp({ ...options, over });
    return await measureCpu(pid, runLoad({ ...options, seconds, over }));
  } finally {
    for (const connection of over) connection.close();
  }
}

/** Throughput per slice of the run, and the last slice against the first. */
function slicesLine(result: LoadResult): string {
  const rates = ratesBySlice(result.acceptedPerSlice, result.seconds);
  const trend = rates.length > 1 && rates[0]! > 0 ? `; last ÷ first ${(rates.at(-1)! / rates[0]!).toFixed(2)}` : "";
  return `acknowledged requests/s per ${SLICE_SECONDS} s of the run: ${rates.map((rate) => Math.round(rate)).join(", ")}${trend}`;
}

/** --compare DIR: another checkout (its own node_modules and build) to alternate with this one. */
const compareRoot = args.compare ? path.resolve(args.compare) : null;
if (compareRoot && !existsSync(path.join(compareRoot, "scripts", "start.mjs"))) {
  throw new Error(`--compare takes a checkout of Periscope (with node_modules), and ${compareRoot}/scripts/start.mjs does not exist`);
}
const pairs = Number(args.pairs);
if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--pairs takes a whole number of 1 or more, not "${args.pairs}"`);
const probeSeconds = Number(args["disk-probe"]);
if (!(probeSeconds >= 0 && probeSeconds <= 600)) throw new Error(`--disk-probe takes seconds from 0 (no probe) to 600, not "${args["disk-probe"]}"`);

/** One Periscope server of the checkout in `cwd`: started as `npm start` does, warmed up, measured, stopped, verified. */
async function runPeriscope(
  engine: Engine,
  mode: IngestMode,
  cwd: string,
  name: string,
  baselineRate: number,
  templatesFor: (publicKey: string) => Template[],
  scrubRules = 0,
  quotas: QuotaVariant = "none",
) {
  const target = engine === "sqlite" ? await sqliteTarget() : await postgresTarget();
  try {
    const periscope = await startProcess(
      // --cpu-prof DIR: a V8 CPU profile of each Periscope server, written when it stops.
      [...(args["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(args["cpu-prof"])] : []), "scripts/start.mjs"],
      { PORT: "0", NODE_ENV: "production", LOG_LEVEL: "info", ...(engine === "sqlite" ? INGEST_MODES[mode] : {}), ...target.env },
      /Default project DSN: (\S+)/,
      cwd,
    );
    // Idle RSS after start: what the process holds before it has seen any traffic.
    await new Promise((resolve) => setTimeout(resolve, Number(args.idle) * 1000));
    const idleRss = statusMb(periscope.child.pid!, "VmRSS");
    const dsn = new URL(periscope.match[1]!);
    await putScrubRules(target.env, dsn.pathname.replace(/^\//, ""), scrubRules);
    await putBenchQuotas(target.env, dsn.pathname.replace(/^\//, ""), quotas);
    const url = `http://${dsn.host}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}&sentry_version=7`;
    // --rate: open-loop pacing for Periscope (latency measured from each request's scheduled time).
    const rate = args.rate ? Number(args.rate) : undefined;
    const result = await warmedRun(periscope.child.pid!, { url, templates: templatesFor(dsn.username), connections, rate });
    const rss = peakRssMb(periscope.child.pid!);
    await stop(periscope.child);
    const { stored, issues, missing } = await target.verify(result.acceptedIds);
    if (missing > 0) process.exitCode = 1;
    // Requests against requests (the bare server reads whole envelopes too), and the issue's figure:
    // durable error events against the bare server's requests. They differ only in the realistic mix.
    const requestRatio = result.accepted / result.seconds / baselineRate;
    const eventRatio = (result.acceptedIds.length - missing) / result.seconds / baselineRate;
    const paced = paceWarning(result.sent / result.seconds, rate);
    return {
      // Durable = events of the measured run that were acknowledged and found stored (warm-up excluded).
      row: row(`periscope (${name})`, result, rss, result.acceptedIds.length - missing, idleRss),
      summary: [
        `${name}: ratio acknowledged requests/s ÷ bare node:http req/s ${requestRatio.toFixed(3)}, durable events/s ÷ bare req/s ${eventRatio.toFixed(3)}; acknowledged ${result.accepted} requests (${result.acceptedIds.length} events) after warm-up; the database holds ${stored} events in ${issues} issues (warm-up included); acknowledged but missing: ${missing}`,
        `${name}: server CPU by thread, % of one core: ${[...result.threadCpuPercent].map(([thread, percent]) => `${thread} ${Math.round(percent)}`).join(", ")}`,
        `${name}: ${slicesLine(result)}`,
        ...(paced === null ? [] : [`${name}: ${paced}`]),
      ],
      requestsPerSecond: result.accepted / result.seconds,
      cpuUsPerRequest: result.cpuUsPerRequest,
    };
  } finally {
    await target.cleanup();
  }
}

/** The release the scenario's bundles are uploaded under, as CI would name one (their debug ids are what finds them). */
const MAP_RELEASE = "bench-web@1.0.0";
const PLAIN_LABEL = "plain";
const BUNDLE_LABEL = "bundle";
/** Stack frames per bundle event, and events (so positions) per bundle: each map is asked for many positions. */
const BUNDLE_FRAMES = 3;
const BUNDLE_EVENTS = 60;

interface ScenarioBundle {
  bundle: BuiltBundle;
  templates: Template[];
}

/** `--mix sourcemaps`: the bundles (one per cold-map probe, each a different build so a different map), built before any server. */
async function scenarioBundles(dir: string): Promise<ScenarioBundle[]> {
  const probes = Number(args.probes);
  const mapBytes = Number(args["map-mb"]) * 1024 * 1024;
  if (!Number.isInteger(probes) || probes < 1) throw new Error(`--probes takes a whole number of 1 or more, not "${args.probes}"`);
  if (!(mapBytes > 0)) throw new Error(`--map-mb takes a size in MiB above 0, not "${args["map-mb"]}"`);
  const sentryCli = path.join(root, "node_modules", ".bin", "sentry-cli");
  const bundles: ScenarioBundle[] = [];
  for (let variant = 1; variant <= probes; variant++) {
    const bundle = await buildBundle(path.join(dir, `build-${variant}`), sentryCli, { targetBytes: mapBytes, variant });
    const positions = namedPositions(readFileSync(bundle.mapFile, "utf8"), BUNDLE_FRAMES * BUNDLE_EVENTS);
    bundles.push({ bundle, templates: bundleEventTemplates(positions, { debugId: bundle.debugId, release: MAP_RELEASE, frames: BUNDLE_FRAMES, label: BUNDLE_LABEL }) });
  }
  return bundles;
}

const latencyText = (values: number[]) =>
  values.length === 0 ? "none" : `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;

/**
 * `--mix sourcemaps`, all on one server: (a) the plain envelopes with no maps uploaded; the bundles
 * uploaded with the real sentry-cli; (c) each bundle's first event amid paced plain events (the map
 * is fetched and parsed then); (b) plain and bundle events in turn, every map parsed and cached.
 * Every acknowledged event of every leg is looked up afterwards, and a few bundle events are read
 * back through the API to show their frames resolved.
 */
async function runSourceMaps(engine: Engine, mode: IngestMode, name: string, baselineRate: number, plain: Template[], bundles: ScenarioBundle[]) {
  const target = engine === "sqlite" ? await sqliteTarget() : await postgresTarget();
  try {
    const periscope = await startProcess(
      [...(args["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(args["cpu-prof"])] : []), "scripts/start.mjs"],
      { PORT: "0", NODE_ENV: "production", LOG_LEVEL: "info", ...BENCH_OWNER, ...(engine === "sqlite" ? INGEST_MODES[mode] : {}), ...target.env },
      /Default project DSN: (\S+)/,
    );
    const pid = periscope.child.pid!;
    await new Promise((resolve) => setTimeout(resolve, Number(args.idle) * 1000));
    const idleRss = statusMb(pid, "VmRSS");
    const dsn = new URL(periscope.match[1]!);
    const url = `http://${dsn.host}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}&sentry_version=7`;
    const baseUrl = `http://${dsn.host}`;

    const plainRun = await warmedRun(pid, { url, templates: plain, connections });
    const plainRss = peakRssMb(pid);

    const upload = { root, baseUrl, databaseEnv: target.env };
    const token = await createToken(upload);
    const slugs = await slugsOf(upload, token, dsn.pathname.slice(1));
    const uploadSeconds: number[] = [];
    for (const { bundle } of bundles) uploadSeconds.push(await sentryCliUpload(upload, token, slugs, MAP_RELEASE, bundle.dir));

    // An eighth of the plain run's rate: well below capacity even on a busy machine (plain events with
    // JavaScript frames are looked up too once the project has artifacts; at a quarter, a shared
    // 2-core machine fell behind), so a plain event waits only if the door stalls.
    const probeRate = Math.max(50, Math.round(plainRun.accepted / plainRun.seconds / 8));
    const probes = [];
    for (const { templates } of bundles) {
      probes.push(await coldMapProbe({ url, plain, coldEvent: templates[0]!, rate: probeRate, connections, seconds: 3, sendAfterMs: 1000 }));
    }

    const bundleIds: string[] = [];
    const mixRun = await warmedRun(pid, {
      url,
      templates: alternate(plain, bundles.flatMap((entry) => entry.templates)),
      connections,
      onAnswer: (_at, _ms, template, status, eventId) => {
        if (status === 200 && eventId !== null && template.label === BUNDLE_LABEL && bundleIds.length < 10_000) bundleIds.push(eventId);
      },
    });
    const sample = [...probes.map((probe) => probe.eventId), ...[0, 0.25, 0.5, 0.75, 0.999].map((at) => bundleIds[Math.floor(at * bundleIds.length)]!)];
    const check = await checkStoredEvents(baseUrl, token, slugs, sample);
    const rss = peakRssMb(pid);
    await stop(periscope.child);

    const plainCheck = await target.verify(plainRun.acceptedIds);
    const probeCheck = await target.verify(probes.flatMap((probe) => probe.acceptedIds));
    const mixCheck = await target.verify(mixRun.acceptedIds);
    const missing = plainCheck.missing + probeCheck.missing + mixCheck.missing;
    if (missing > 0 || check.resolved < check.frames || probes.some((probe) => probe.status !== 200)) process.exitCode = 1;
    const durable = (result: LoadResult, lost: number) => (result.acceptedIds.length - lost) / result.seconds;
    const threads = (result: CpuFigures) => [...result.threadCpuPercent].map(([thread, percent]) => `${thread} ${Math.round(percent)}`).join(", ");
    const byLabel = (label: string) => mixRun.latenciesByLabel.get(label) ?? [];
    const during = probes.flatMap((probe) => probe.during);
    const outside = probes.flatMap((probe) => probe.outside);
    const mapMb = bundles.map(({ bundle }) => (bundle.mapBytes / 1024 / 1024).toFixed(2)).join(", ");
    return {
      rows: [
        row(`periscope (${name}), plain, no maps`, plainRun, plainRss, plainRun.acceptedIds.length - plainCheck.missing, idleRss),
        row(`periscope (${name}), plain + bundle events, maps cached`, mixRun, rss, mixRun.acceptedIds.length - mixCheck.missing, idleRss),
      ],
      summary: [
        `${name}: (a) plain, no maps: durable events/s ÷ bare req/s ${(durable(plainRun, plainCheck.missing) / baselineRate).toFixed(3)}; server CPU by thread, % of one core: ${threads(plainRun)}`,
        `${name}: upload: ${bundles.length} bundles (maps of ${mapMb} MiB, ${bundles[0]!.bundle.modules} modules) by sentry-cli sourcemaps upload in ${uploadSeconds.map((value) => value.toFixed(1)).join(", ")} s`,
        ...probes.map((probe, index) => `${name}: (c) cold map ${index + 1}: ${probeLine(probe, probeRate)}`),
        `${name}: (c) all cold maps: plain events in flight while a map was fetched and parsed: ${during.length}, ${latencyText(during)}, max ${Math.max(0, ...during).toFixed(1)} ms, ` +
          `${probes.reduce((sum, probe) => sum + probe.answeredInside, 0)} acknowledged meanwhile; the other plain events of the probes: ${latencyText(outside)}`,
        `${name}: (b) with maps: durable events/s ${Math.round(durable(mixRun, mixCheck.missing))} (÷ plain run ${(durable(mixRun, mixCheck.missing) / durable(plainRun, plainCheck.missing)).toFixed(3)}); plain events ${latencyText(byLabel(PLAIN_LABEL))}; bundle events (${BUNDLE_FRAMES} frames each) ${latencyText(byLabel(BUNDLE_LABEL))}`,
        `${name}: (b) with maps: server CPU by thread, % of one core: ${threads(mixRun)}`,
        `${name}: stored bundle events read back through the API: ${check.resolved} of ${check.frames} frames of ${sample.length} events resolved${check.example ? ` (e.g. ${check.example})` : ""}`,
        `${name}: acknowledged but missing: plain ${plainCheck.missing}, probes ${probeCheck.missing}, with maps ${mixCheck.missing}; the database holds ${mixCheck.stored} events in ${mixCheck.issues} issues (warm-ups included)`,
      ],
    };
  } finally {
    await target.cleanup();
  }
}

async function main() {
  const selected = await engines();
  const modes = ingestModes();
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    spawnSync("npx", ["next", "build"], { cwd: root, stdio: "inherit" });
  }
  // "errors": four error envelopes; "realistic": the issue-5 mix (bench/mix.ts), addressed to each server's key;
  // "sourcemaps": the four envelopes, then beside events whose frames need an uploaded source map (runSourceMaps).
  if (!["errors", "realistic", "sourcemaps"].includes(args.mix)) throw new Error(`--mix takes errors, realistic or sourcemaps, not "${args.mix}"`);
  const realistic = args.mix === "realistic";
  const sourceMaps = args.mix === "sourcemaps";
  if (sourceMaps && compareRoot) throw new Error("--mix sourcemaps measures one build; --compare the builds on --mix errors (the plain envelopes)");
  const bundleDir = sourceMaps ? mkdtempSync(path.join(tmpdir(), "periscope-bench-maps-")) : null;
  const bundles = bundleDir ? await scenarioBundles(bundleDir) : [];
  const templatesFor = (publicKey: string) =>
    realistic
      ? realisticMix(publicKey, Number(args.issues))
      : FIXTURES.map((name) => makeTemplate(readFileSync(path.join(root, "tests", "fixtures", "envelopes", `${name}.envelope`))));
  const templates = templatesFor("0".repeat(32));
  const bytes = templates.reduce((sum, template) => sum + Buffer.concat(template.parts).length, 0);
  console.log(
    `bench: ${seconds}s per server, ${connections} connections, engines ${selected.join(", ")}, ingest ${modes.join(", ")}, ` +
      (realistic ? `realistic mix (${args.issues} error variants)` : `envelopes ${FIXTURES.join(", ")}`) +
      (sourceMaps ? `, then beside events of ${BUNDLE_FRAMES} frames into ${bundles.length} bundles with maps of ${bundles.map(({ bundle }) => (bundle.mapBytes / 1024 / 1024).toFixed(2)).join(", ")} MiB` : "") +
      `, ${templates.length} templates averaging ${Math.round(bytes / templates.length)} bytes`,
  );

  const baseline = await measureBaseline(templates);
  const baselineRate = baseline.rate;

  const rows = [baseline.row];
  const summaries: string[] = [];
  if (probeSeconds > 0) {
    // Where the servers' data directories go; between the bare server and Periscope, nothing else running.
    const disk = probeFsync(tmpdir(), probeSeconds);
    summaries.push(
      `disk, same run: ${disk.fsyncs} fdatasyncs of 16 KB in ${probeSeconds} s, p50 ${disk.p50Ms.toFixed(2)} ms, p99 ${disk.p99Ms.toFixed(2)} ms, ` +
        `max ${disk.maxMs.toFixed(1)} ms, ${disk.slow} over ${SLOW_FSYNC_MS} ms (a commit waits for its fsync: such pauses reach the acknowledgements' p99)`,
    );
  }
  const ruleCounts = args["scrub-rules"].split(",").map((count) => Number(count.trim()));
  if (ruleCounts.some((count) => !Number.isInteger(count) || count < 0 || count > MAX_SCRUB_RULES)) {
    throw new Error(`--scrub-rules takes a comma-separated list of rule counts from 0 to ${MAX_SCRUB_RULES}, not "${args["scrub-rules"]}"`);
  }
  const quotaVariants = args.quotas.split(",").map((variant) => variant.trim()) as QuotaVariant[];
  if (quotaVariants.some((variant) => !QUOTA_VARIANTS.includes(variant))) {
    throw new Error(`--quotas takes a comma-separated list of ${QUOTA_VARIANTS.join(" or ")}, not "${args.quotas}"`);
  }
  for (const [engine, mode] of selected.flatMap((engine) => modes.map((mode) => [engine, mode] as const))) {
    const name = modes.length > 1 ? `${engine}, ${mode}` : engine;
    if (sourceMaps) {
      const run = await runSourceMaps(engine, mode, name, baselineRate, templates.map((template) => ({ ...template, label: PLAIN_LABEL })), bundles);
      rows.push(...run.rows);
      summaries.push(...run.summary);
      continue;
    }
    if (!compareRoot && quotaVariants.length > 1) {
      const byVariant = new Map<QuotaVariant, { rates: number[]; cpu: number[] }>();
      for (const variant of quotaVariants) {
        const run = await runPeriscope(engine, mode, root, `${name}, quotas ${variant}`, baselineRate, templatesFor, ruleCounts[0], variant);
        rows.push(run.row);
        summaries.push(...run.summary);
        const known = byVariant.get(variant) ?? { rates: [], cpu: [] };
        known.rates.push(run.requestsPerSecond);
        known.cpu.push(run.cpuUsPerRequest);
        byVariant.set(variant, known);
      }
      const on = byVariant.get("on");
      const none = byVariant.get("none");
      summaries.push(
        `${name}: by quotas: ${[...byVariant].map(([variant, { rates, cpu }]) => `${variant} ${rates.map(Math.round).join(", ")} req/s (median ${Math.round(median(rates))}), CPU µs/req ${cpu.map(Math.round).join(", ")} (median ${Math.round(median(cpu))})`).join("; ")}` +
          (on && none ? `; on ÷ none: requests/s ${(median(on.rates) / median(none.rates)).toFixed(3)}, CPU per request ${(median(on.cpu) / median(none.cpu)).toFixed(3)}` : ""),
      );
      continue;
    }
    if (!compareRoot) {
      const byCount = new Map<number, number[]>();
      for (const count of ruleCounts) {
        const label = ruleCounts.length > 1 ? `${name}, ${count} scrub rules` : name;
        const run = await runPeriscope(engine, mode, root, label, baselineRate, templatesFor, count);
        rows.push(run.row);
        summaries.push(...run.summary);
        byCount.set(count, [...(byCount.get(count) ?? []), run.requestsPerSecond]);
      }
      if (byCount.size > 1) {
        summaries.push(`${name}: acknowledged requests/s by scrub rules: ${[...byCount].map(([count, rates]) => `${count} rules ${rates.map((rate) => Math.round(rate)).join(", ")} (median ${Math.round(median(rates))})`).join("; ")}`);
      }
      continue;
    }
    // Alternated, and each pair in the other order from the last, so a machine that drifts
    // through the run weighs on both builds alike.
    const ratios: { requests: number; cpu: number }[] = [];
    for (let pair = 1; pair <= pairs; pair++) {
      const builds = [
        { label: "this", cwd: root },
        { label: "compared", cwd: compareRoot },
      ];
      if (pair % 2 === 0) builds.reverse();
      const runs = new Map<string, Awaited<ReturnType<typeof runPeriscope>>>();
      for (const build of builds) {
        // Quotas go into the database both builds read; a build without quotas ignores them.
        const run = await runPeriscope(engine, mode, build.cwd, `${name}, ${build.label} ${pair}`, baselineRate, templatesFor, 0, quotaVariants[0]);
        runs.set(build.label, run);
        rows.push(run.row);
        summaries.push(...run.summary);
      }
      const [mine, theirs] = [runs.get("this")!, runs.get("compared")!];
      ratios.push({ requests: mine.requestsPerSecond / theirs.requestsPerSecond, cpu: mine.cpuUsPerRequest / theirs.cpuUsPerRequest });
    }
    const list = (values: number[]) => values.map((value) => value.toFixed(3)).join(", ");
    const requests = ratios.map((ratio) => ratio.requests);
    const cpu = ratios.map((ratio) => ratio.cpu);
    summaries.push(
      `${name}: this build ÷ ${compareRoot}, per pair: requests/s ${list(requests)} (median ${median(requests).toFixed(3)}); ` +
        `server CPU per request ${list(cpu)} (median ${median(cpu).toFixed(3)})`,
    );
  }
  console.table(rows);
  for (const line of summaries) console.log(line);
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
}

await main();
