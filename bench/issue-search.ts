/**
 * `npx tsx bench/issue-search.ts [-- --events 1000000 --issues 10000 --runs 40 --engine sqlite|postgres|both]`
 *
 * The issue search (issue 35) at scale: fills the tables the issue list reads — issues, issue_tags,
 * issue_hourly and the triage tables — as `events` error events in `issues` issues over 5 projects
 * would leave them (times seen summing to `events`, Zipf-like; 1–50 user values per issue, releases,
 * environments, browsers, URLs), written directly in bulk, not through HTTP or ingest. The `events`
 * table itself is left empty: no issue search reads it. Then times each query kind through the
 * services' path (parse, resolve, compile, query, sparklines) and prints p50/p95 per kind and engine.
 * PostgreSQL uses PERISCOPE_TEST_DATABASE_URL (or the local test database) in a throwaway schema.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { randomBytes } from "node:crypto";
import type { IssueSort, Organization, Project } from "../src/model";
import { resolveIssueSearch } from "../src/services/issues/issue-search";
import { createPostgresStorage } from "../src/storage/postgres";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../src/storage/sqlite";
import type { Storage } from "../src/storage/types";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "1000000" },
    issues: { type: "string", default: "10000" },
    runs: { type: "string", default: "40" },
    engine: { type: "string", default: "both" },
    // Keep the filled database (SQLite directory / PostgreSQL schema) to look at query plans.
    keep: { type: "boolean", default: false },
  },
});
const EVENTS = Number(args.events);
const ISSUES = Number(args.issues);
const RUNS = Number(args.runs);
const NOW = Date.now();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PROJECTS = 5;
const RELEASES = 20;

type Value = string | number | null;
interface Tables {
  issues: Value[][];
  issue_tags: Value[][];
  issue_hourly: Value[][];
  issue_assignments: Value[][];
  issue_bookmarks: Value[][];
  issue_reviews: Value[][];
}
const COLUMNS: Record<keyof Tables, string[]> = {
  issues: ["id", "project_id", "grouping_config", "hash", "grouping_strategy", "seq", "title", "culprit", "level", "type", "metadata", "status", "substatus", "first_seen", "last_seen", "times_seen", "user_count", "first_release", "last_release"],
  issue_tags: ["issue_id", "key", "value", "count", "first_seen", "last_seen"],
  issue_hourly: ["issue_id", "hour", "count"],
  issue_assignments: ["issue_id", "user_id", "team_id", "date_assigned"],
  issue_bookmarks: ["issue_id", "user_id", "date_created"],
  issue_reviews: ["issue_id", "user_id", "date_reviewed"],
};

/** A small deterministic generator: the same data on both engines. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function generate(projectIds: number[], userId: number, teamId: number): Tables {
  const rand = random(42);
  const tables: Tables = { issues: [], issue_tags: [], issue_hourly: [], issue_assignments: [], issue_bookmarks: [], issue_reviews: [] };
  // Zipf-like weights, scaled so that times seen sum to EVENTS.
  const weights = Array.from({ length: ISSUES }, (_, n) => 1 / (n + 1) ** 0.8);
  const scale = EVENTS / weights.reduce((a, b) => a + b, 0);
  let total = 0;
  const LEVELS = ["error", "error", "error", "error", "error", "error", "error", "warning", "warning", "fatal", "info"];
  const ERRORS = ["TypeError", "RangeError", "ReferenceError", "SyntaxError", "NetworkError", "TimeoutError"];
  for (let n = 0; n < ISSUES; n++) {
    const id = n + 1;
    const project = projectIds[n % PROJECTS]!;
    const times = n === ISSUES - 1 ? Math.max(1, EVENTS - total) : Math.max(1, Math.round(weights[n]! * scale));
    total += times;
    const users = Math.max(1, Math.min(times, Math.round(times * (0.1 + rand() * 0.4))));
    const firstSeen = NOW - Math.floor(rand() * 30 * DAY);
    const lastSeen = firstSeen + Math.floor(rand() * (NOW - firstSeen));
    const level = LEVELS[Math.floor(rand() * LEVELS.length)]!;
    const statusDraw = rand();
    const status = statusDraw < 0.7 ? "unresolved" : statusDraw < 0.9 ? "resolved" : "ignored";
    const substatus = status === "resolved" ? "resolved" : status === "ignored" ? "archived" : ["new", "ongoing", "ongoing", "regressed"][n % 4]!;
    const firstRelease = `app@1.${Math.floor(rand() * RELEASES)}.0`;
    const error = ERRORS[n % ERRORS.length]!;
    const title = `${error}: failure ${n} in handler ${n % 97}`;
    tables.issues.push([
      id, project, "newstyle:2023-01-11", n.toString(16).padStart(32, "0"), "exception", Math.floor(n / PROJECTS) + 1, title,
      `app/routes/r${n % 211}.js in handle${n % 13}`, level, "error", JSON.stringify({ type: error, value: `failure ${n}` }),
      status, substatus, firstSeen, lastSeen, times, users, firstRelease, firstRelease,
    ]);
    const tag = (key: string, value: string, count: number) => tables.issue_tags.push([id, key, value, count, firstSeen, lastSeen]);
    tag("level", level, times);
    tag("environment", "production", Math.ceil(times * 0.8));
    if (n % 3 === 0) tag("environment", "staging", Math.max(1, Math.floor(times * 0.2)));
    const releases = 1 + (n % 3);
    for (let r = 0; r < releases; r++) tag("release", `app@1.${(Number(firstRelease.split(".")[1]) + r) % RELEASES}.0`, Math.max(1, Math.floor(times / releases)));
    for (let b = 0; b < 1 + (n % 4); b++) tag("browser", `${["Chrome", "Firefox", "Safari", "Edge"][(n + b) % 4]} ${110 + ((n + b) % 10)}`, Math.max(1, Math.floor(times / 4)));
    tag("url", `https://shop.example.com/${["checkout", "cart", "search", "account", "product"][n % 5]}/${n % 50}`, times);
    tag("handled", n % 5 === 0 ? "no" : "yes", times);
    for (let u = 0; u < Math.min(users, 50); u++) {
      const who = (n * 7 + u * 13) % 5000;
      // As ingest counts them: the user tag (strongest identifier) and each field under its own key.
      tag("user", who % 2 === 0 ? `email:user${who}@example.com` : `id:${who}`, 1);
      if (who % 2 !== 0) tag("user.id", String(who), 1);
      tag("user.email", `user${who}@example.com`, 1);
    }
    if (NOW - lastSeen < DAY) {
      for (let h = 0; h < 24; h++) tables.issue_hourly.push([id, Math.floor((NOW - h * HOUR) / HOUR) * HOUR, 1 + ((n + h) % 7)]);
    }
    if (n % 5 === 0) tables.issue_assignments.push([id, userId, null, NOW]);
    else if (n % 5 === 1) tables.issue_assignments.push([id, null, teamId, NOW]);
    if (n % 20 === 0) tables.issue_bookmarks.push([id, userId, NOW]);
    if (n % 2 === 0) tables.issue_reviews.push([id, userId, NOW]);
  }
  return tables;
}

interface Engine {
  name: string;
  storage: Storage;
  load(tables: Tables): Promise<void>;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-search-bench-"));
  const storage = createSqliteStorage(dir);
  return {
    name: "sqlite",
    storage,
    async load(tables) {
      // A second connection, as a bulk loader: the storage's own stays open for the queries.
      const db = new Database(path.join(dir, SQLITE_FILE_NAME));
      db.pragma("journal_mode = WAL");
      db.transaction(() => {
        for (const [table, rows] of Object.entries(tables) as [keyof Tables, Value[][]][]) {
          const columns = COLUMNS[table];
          const insert = db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
          for (const row of rows) insert.run(...row);
        }
      })();
      db.exec("ANALYZE");
      db.close();
    },
    async close() {
      await storage.close();
      if (args.keep) console.log(`kept ${path.join(dir, SQLITE_FILE_NAME)}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresEngine(): Promise<Engine> {
  const base = process.env.PERISCOPE_TEST_DATABASE_URL || "postgres://periscope:periscope@127.0.0.1:5432/periscope_test";
  const schema = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const storage = await createPostgresStorage({ url: url.toString(), poolSize: 4 });
  return {
    name: "postgres",
    storage,
    async load(tables) {
      await admin.query(`SET search_path = ${schema}`);
      for (const [table, rows] of Object.entries(tables) as [keyof Tables, Value[][]][]) {
        const columns = COLUMNS[table];
        for (let start = 0; start < rows.length; start += 1000) {
          const chunk = rows.slice(start, start + 1000);
          const params: Value[] = [];
          const values = chunk.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`).join(", ");
          await admin.query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}`, params);
        }
      }
      // The storage's issues ids are an identity column: move it past the rows written here.
      await admin.query(`SELECT setval(pg_get_serial_sequence('issues', 'id'), (SELECT MAX(id) FROM issues))`);
      await admin.query("ANALYZE");
    },
    async close() {
      await storage.close();
      if (args.keep) console.log(`kept schema ${schema}`);
      else await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

interface Kind {
  name: string;
  query: string;
  sort?: IssueSort;
  /** Only the first project (a project's list) instead of all five (the organisation's). */
  oneProject?: boolean;
  windowMs?: number;
}

const KINDS: Kind[] = [
  { name: "default (is:unresolved, org-wide)", query: "is:unresolved" },
  { name: "one project, is:unresolved", query: "is:unresolved", oneProject: true },
  { name: "free text", query: "is:unresolved failure 12 in" },
  { name: "tag exact (environment, browser)", query: 'environment:staging browser:"Chrome 113"' },
  { name: "user.email", query: "user.email:user42@example.com" },
  { name: "has:user has:release !has:dist", query: "has:user has:release !has:dist" },
  { name: "wildcard tag", query: "url:*checkout/1*" },
  { name: "numbers and dates", query: "times_seen:>100 lastSeen:-24h" },
  { name: "age:-24h", query: "age:-24h" },
  { name: "is:unassigned is:for_review", query: "is:unassigned is:for_review" },
  { name: "assigned:me / #team", query: "assigned:[me, #bench-team]" },
  { name: "bookmarks:me", query: "bookmarks:me" },
  { name: "OR with parentheses", query: "(level:error OR level:fatal) environment:staging !is:resolved" },
  { name: "release:latest", query: "release:latest" },
  { name: "firstRelease wildcard", query: "firstRelease:app@1.1*" },
  { name: "sort freq", query: "is:unresolved", sort: "freq" },
  { name: "sort users", query: "is:unresolved", sort: "user" },
  { name: "sort priority", query: "is:unresolved", sort: "priority" },
  { name: "statsPeriod=14d", query: "is:unresolved", windowMs: 14 * DAY },
  { name: "negated tag", query: "!environment:staging" },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(engine: Engine): Promise<{ kind: string; p50: number; p95: number; rows: number }[]> {
  const { storage } = engine;
  const organization: Organization = await storage.organizations.create({ slug: "bench", name: "Bench" });
  const projects: Project[] = [];
  for (let p = 0; p < PROJECTS; p++) projects.push(await storage.projects.create({ organizationId: organization.id, slug: `p${p}`, name: `P${p}`, platform: "node" }));
  const user = await storage.accounts.users.create({ email: "bench@example.com", name: "Bench", passwordHash: "x" });
  const member = await storage.accounts.members.add({ organizationId: organization.id, userId: user.id, role: "owner" });
  const team = await storage.accounts.teams.create({ organizationId: organization.id, slug: "bench-team", name: "Bench team" });
  const started = performance.now();
  await engine.load(generate(projects.map((project) => Number(project.id)), Number(user.id), Number(team.id)));
  console.log(`${engine.name}: loaded ${ISSUES.toLocaleString()} issues (${EVENTS.toLocaleString()} events' worth) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const viewer = { organization, userId: user.id, memberId: member.id };
  const results = [];
  for (const kind of KINDS) {
    const scope = kind.oneProject ? projects.slice(0, 1) : projects;
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run < RUNS + 3; run++) {
      const t0 = performance.now();
      const search = await resolveIssueSearch(storage, viewer, scope, kind.query, NOW);
      const windowed = kind.windowMs
        ? { kind: "and" as const, nodes: [...(search ? [search] : []), { kind: "compare" as const, column: "last_seen" as const, op: ">=" as const, value: NOW - kind.windowMs }] }
        : search;
      const page = await storage.issues.query({ projectIds: scope.map((project) => project.id), sort: kind.sort ?? "date", search: windowed, limit: 25, now: NOW });
      // The first runs warm caches and V8; not measured.
      if (run >= 3) times.push(performance.now() - t0);
      rows = page.items.length;
    }
    times.sort((a, b) => a - b);
    results.push({ kind: kind.name, p50: percentile(times, 50), p95: percentile(times, 95), rows });
  }
  return results;
}

const engines = args.engine === "both" ? ["sqlite", "postgres"] : [args.engine!];
const all: Record<string, { kind: string; p50: number; p95: number; rows: number }[]> = {};
for (const name of engines) {
  const engine = name === "sqlite" ? await sqliteEngine() : await postgresEngine();
  try {
    all[name] = await measure(engine);
  } finally {
    await engine.close();
  }
}
console.log(`\n${EVENTS.toLocaleString()} events in ${ISSUES.toLocaleString()} issues, ${PROJECTS} projects, ${RUNS} runs per kind (ms, page of 25)\n`);
console.log(`| query kind | ${engines.map((name) => `${name} p50 | ${name} p95`).join(" | ")} | rows |`);
console.log(`|---|${engines.map(() => "---:|---:").join("|")}|---:|`);
for (let k = 0; k < KINDS.length; k++) {
  const cells = engines.map((name) => `${all[name]![k]!.p50.toFixed(1)} | ${all[name]![k]!.p95.toFixed(1)}`);
  console.log(`| ${KINDS[k]!.name} | ${cells.join(" | ")} | ${all[engines[0]!]![k]!.rows} |`);
}
