/**
 * Issue search end to end (issue 35), on SQLite and PostgreSQL: real `@sentry/node` events (captured
 * once by the SDK, then delivered as the same envelopes to a server per engine), triage rows, and
 * every query form through `GET /api/0/organizations/{org}/issues/`. Each query's expected issues are
 * computed from what the test sent (the `SENT` table), never read back from the server.
 */
import Database from "better-sqlite3";
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { eventually } from "../helpers/accounts";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { captureEvents, initSentryCapture, Sentry, type CapturedEvent } from "../helpers/sentry-node-capture";
import { OWNER_EMAIL, startServer, type TestServer } from "../helpers/server";

const DAY_S = 86_400;

/** What each issue was sent as. `daysAgo` moves its events back; `regressed`: resolved, then one more event. */
interface Sent {
  key: string;
  title: string;
  project: "web" | "api";
  level: "fatal" | "error" | "warning" | "info";
  environment: string;
  release?: string;
  user?: { email?: string; id?: string; username?: string; ip_address?: string };
  flow?: string;
  /** The `shop.browser` tag of each event in turn (for the tag value endpoints). */
  browsers?: string[];
  events: number;
  daysAgo?: number;
  resolved?: boolean;
  regressed?: boolean;
  assignee?: "me" | "#backend";
  bookmarked?: boolean;
  reviewed?: boolean;
}

// Sent in this order: C's release (app@2.0) is web's newest by first event, api@5 api's.
const SENT: Sent[] = [
  { key: "A", title: "Checkout failed for cart", project: "web", level: "error", environment: "production", release: "app@1.0", user: { email: "ann@example.com" }, flow: "checkout", browsers: ["Chrome", "Firefox", "Chrome"], events: 3, assignee: "me", reviewed: true },
  { key: "B", title: "Payment gateway timeout", project: "web", level: "warning", environment: "staging", release: "app@0.9", user: { id: "42" }, flow: "checkout-v2", events: 1, daysAgo: 3, bookmarked: true },
  { key: "C", title: "Signup crashed on submit", project: "web", level: "fatal", environment: "production", release: "app@2.0", flow: "signup-v2", events: 5, assignee: "#backend" },
  { key: "D", title: "Nightly report", project: "web", level: "info", environment: "staging", user: { username: "bob" }, events: 2 },
  { key: "E", title: "Checkout button missing", project: "web", level: "error", environment: "production", release: "app@2.0", user: { email: "cat@example.com" }, flow: "checkout", events: 1, resolved: true },
  { key: "F", title: "Cache warmup failed", project: "web", level: "error", environment: "production", events: 1, regressed: true },
  { key: "G", title: "Queue consumer stalled", project: "api", level: "error", environment: "production", release: "api@5", events: 2 },
  // Every user field at once: the `user` tag holds only `id:7`, yet each field must find H.
  { key: "H", title: "Import job lost its lock", project: "api", level: "error", environment: "production", user: { id: "7", email: "dan@example.com", username: "dan", ip_address: "198.51.100.23" }, events: 2 },
  // First seen 10 days ago: out of the 7-day inbox (is:for_review), unless a regression brought it back (J).
  { key: "I", title: "Legacy export stalled", project: "web", level: "warning", environment: "production", events: 1, daysAgo: 10 },
  { key: "J", title: "Session sweeper crashed", project: "api", level: "warning", environment: "production", events: 1, daysAgo: 10, regressed: true },
];

const status = (s: Sent) => (s.resolved ? "resolved" : "unresolved");
const hasUser = (s: Sent) => s.user !== undefined;
const timesSeen = (s: Sent) => s.events + (s.regressed ? 1 : 0);
const recent = (s: Sent) => (s.daysAgo ?? 0) === 0;

/** Query → which sent issues it must return (by key), computed from SENT. */
const CASES: [string, (s: Sent) => boolean][] = [
  ["", () => true],
  ["is:unresolved", (s) => status(s) === "unresolved"],
  ["is:resolved", (s) => status(s) === "resolved"],
  ["is:regressed", (s) => s.regressed === true],
  ["level:error", (s) => s.level === "error"],
  ["!level:error", (s) => s.level !== "error"],
  ["level:[warning, fatal]", (s) => s.level === "warning" || s.level === "fatal"],
  ["environment:staging", (s) => s.environment === "staging"],
  ["!environment:staging", (s) => s.environment !== "staging"],
  ["release:app@2.0", (s) => s.release === "app@2.0"],
  ["release:app@*", (s) => s.release?.startsWith("app@") === true],
  ["release:latest", (s) => s.release === "app@2.0" || s.release === "api@5"],
  ["firstRelease:app@1.0", (s) => s.release === "app@1.0"],
  ["has:release", (s) => s.release !== undefined],
  ["!has:release", (s) => s.release === undefined],
  ["has:user", hasUser],
  ["!has:user", (s) => !hasUser(s)],
  ["user.email:ann@example.com", (s) => s.user?.email === "ann@example.com"],
  ["user.email:*@example.com", (s) => s.user?.email?.endsWith("@example.com") === true],
  ["user.id:42", (s) => s.user?.id === "42"],
  ["user.username:bob", (s) => s.user?.username === "bob"],
  ["user.email:dan@example.com", (s) => s.user?.email === "dan@example.com"],
  ["user.id:7", (s) => s.user?.id === "7"],
  ["user.username:dan", (s) => s.user?.username === "dan"],
  ["user.ip:198.51.100.23", (s) => s.user?.ip_address === "198.51.100.23"],
  ["user.ip:198.51.100.*", (s) => s.user?.ip_address?.startsWith("198.51.100.") === true],
  ["user.email:[ann@example.com, dan@example.com]", (s) => s.user?.email === "ann@example.com" || s.user?.email === "dan@example.com"],
  ["!user.email:dan@example.com", (s) => s.user?.email !== "dan@example.com"],
  ["!user.id:7", (s) => s.user?.id !== "7"],
  ["has:user.email", (s) => s.user?.email !== undefined],
  ["!has:user.email", (s) => s.user?.email === undefined],
  ["has:user.ip", (s) => s.user?.ip_address !== undefined],
  ["user.id:dan@example.com", () => false],
  ["user.email:7", () => false],
  ["flow:checkout", (s) => s.flow === "checkout"],
  ["flow:checkout*", (s) => s.flow?.startsWith("checkout") === true],
  ["flow:*-v2", (s) => s.flow?.endsWith("-v2") === true],
  ["flow:[signup-v2, checkout-v2]", (s) => s.flow === "signup-v2" || s.flow === "checkout-v2"],
  ["tags[flow]:checkout", (s) => s.flow === "checkout"],
  ["times_seen:>2", (s) => timesSeen(s) > 2],
  ["times_seen:<=1", (s) => timesSeen(s) <= 1],
  ["timesSeen:2", (s) => timesSeen(s) === 2],
  ["firstSeen:-24h", recent],
  ["firstSeen:+1d", (s) => !recent(s)],
  ["age:-24h", recent],
  ["lastSeen:-1d", (s) => recent(s) || s.regressed === true],
  ["lastSeen:>2020-01-01", () => true],
  ["checkout", (s) => /checkout/i.test(s.title)],
  ["failed", (s) => /failed/i.test(s.title)],
  ['"Checkout failed"', (s) => s.title.includes("Checkout failed")],
  ["is:assigned", (s) => s.assignee !== undefined],
  ["is:unassigned is:unresolved", (s) => s.assignee === undefined && status(s) === "unresolved"],
  ["assigned:me", (s) => s.assignee === "me"],
  [`assigned:${OWNER_EMAIL}`, (s) => s.assignee === "me"],
  ["assigned:#backend", (s) => s.assignee === "#backend"],
  ["assigned:[me, #backend]", (s) => s.assignee !== undefined],
  ["assigned:none", (s) => s.assignee === undefined],
  ["bookmarks:me", (s) => s.bookmarked === true],
  ["is:for_review", (s) => status(s) === "unresolved" && !s.reviewed && ((s.daysAgo ?? 0) < 7 || s.regressed === true)],
  ["project:api", (s) => s.project === "api"],
  ["issue.priority:high", (s) => s.level === "error" || s.level === "fatal"],
  ["(level:fatal OR flow:checkout) !is:resolved", (s) => (s.level === "fatal" || s.flow === "checkout") && status(s) !== "resolved"],
  ["level:error OR level:fatal environment:production", (s) => s.level === "error" || (s.level === "fatal" && s.environment === "production")],
  ["(level:error OR level:warning) AND (environment:staging OR has:user)", (s) => (s.level === "error" || s.level === "warning") && (s.environment === "staging" || hasUser(s))],
];

/** Malformed queries: the exact 400 detail. */
const REFUSED: [string, string][] = [
  ["is:unassinged", 'invalid query: is:unassinged: unknown value "unassinged" (supported: unresolved, resolved, ignored, archived, assigned, unassigned, for_review, new, ongoing, regressed, escalating)'],
  ["times_seen:>lots", 'invalid query: times_seen:>lots: "lots" is not a number'],
  ["assigned:#nobody", "invalid query: assigned:#nobody: no team #nobody in this organization"],
  ["assigned:stranger@example.com", "invalid query: assigned:stranger@example.com: no member of this organization has the email stranger@example.com"],
  ["project:nope", 'invalid query: project:nope: no project "nope" among the projects searched'],
  ["(level:error", 'invalid query: "(" at position 1 is never closed'],
];

interface Group {
  id: string;
  title: string;
  status: string;
  count: string;
  userCount: number;
}

function envelopeOf(event: CapturedEvent, timestampShift: number): string {
  const payload = { ...event.payload, timestamp: (event.payload.timestamp as number) - timestampShift };
  return `${JSON.stringify({ event_id: event.header.event_id, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(payload)}\n`;
}

class Engine {
  readonly projects = new Map<string, { id: string; publicKey: string }>();
  ids = new Map<string, string>();

  constructor(
    readonly name: string,
    readonly server: TestServer,
    readonly schema: TestSchema | null,
  ) {}

  async get(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
    const response = await this.server.api(pathAndQuery);
    return { status: response.status, body: await response.json() };
  }

  async send(project: string, events: CapturedEvent[], shift = 0): Promise<void> {
    const target = this.projects.get(project)!;
    for (const event of events) {
      const response = await fetch(`${this.server.baseUrl}/api/${target.id}/envelope/?sentry_key=${target.publicKey}&sentry_version=7`, {
        method: "POST",
        body: envelopeOf(event, shift),
      });
      assert.equal(response.status, 200, await response.text());
    }
  }

  /** Every issue of both projects, by title, once `count` issues with `events` events in all are listed. */
  async settle(count: number, events: number): Promise<Map<string, Group>> {
    return eventually(`${count} issues with ${events} events on ${this.name}`, async () => {
      const { body } = await this.get("/api/0/organizations/default/issues/?project=-1&query=&limit=100");
      const groups = body as Group[];
      const total = groups.reduce((sum, group) => sum + Number(group.count), 0);
      return groups.length === count && total === events ? new Map(groups.map((group) => [group.title, group])) : undefined;
    }, 20_000);
  }

  async sql(statement: string, params: (string | number)[]): Promise<void> {
    if (this.schema) {
      const client = new pg.Client({ connectionString: this.schema.url });
      await client.connect();
      try {
        await client.query(statement.replace(/\?/g, (() => { let n = 0; return () => `$${++n}`; })()), params);
      } finally {
        await client.end();
      }
      return;
    }
    const db = new Database(path.join(this.server.dataDir, "periscope.sqlite"));
    try {
      db.pragma("busy_timeout = 5000");
      db.prepare(statement).run(...params);
    } finally {
      db.close();
    }
  }
}

/** The SDK's events per sent issue, captured once. */
const captured = new Map<string, CapturedEvent[]>();
const regressions = new Map<string, CapturedEvent>();

async function capture(): Promise<void> {
  initSentryCapture();
  const one = async (s: Sent, n = 0) =>
    captureEvents((scope) => {
      if (s.browsers) scope.setTag("shop.browser", s.browsers[n % s.browsers.length]!);
      scope.setLevel(s.level);
      scope.setFingerprint([s.key]);
      if (s.user) scope.setUser(s.user);
      if (s.flow) scope.setTag("flow", s.flow);
      Sentry.captureMessage(s.title, s.level);
    }).then((events) =>
      // As an SDK initialised with this environment and release sends them (one SDK serves every issue here).
      events.map((event) => ({ ...event, payload: { ...event.payload, environment: s.environment, ...(s.release ? { release: s.release } : {}) } })),
    );
  for (const s of SENT) {
    const events: CapturedEvent[] = [];
    for (let n = 0; n < s.events; n++) events.push(...(await one(s, n)));
    captured.set(s.key, events);
    if (s.regressed) regressions.set(s.key, (await one(s))[0]!);
  }
}

async function startEngine(name: string, schema: TestSchema | null): Promise<Engine> {
  const server = await startServer(schema ? { DATABASE_URL: schema.url } : {});
  const engine = new Engine(name, server, schema);
  const organization = await server.withStorage(async (storage) => {
    const org = (await storage.organizations.getBySlug("default"))!;
    const api = await storage.projects.create({ organizationId: org.id, slug: "api", name: "API", platform: "node" });
    const key = await storage.keys.create({ projectId: api.id, label: "Default" });
    engine.projects.set("api", { id: api.id, publicKey: key.publicKey });
    await storage.accounts.teams.create({ organizationId: org.id, slug: "backend", name: "Backend" });
    return org;
  });
  assert.ok(organization);
  engine.projects.set("web", { id: server.projectId, publicKey: server.publicKey });
  // Ten seconds apart in SENT's order, so "newest first event" (release:latest) never ties on a millisecond.
  for (const [index, s] of SENT.entries()) await engine.send(s.project, captured.get(s.key)!, (s.daysAgo ?? 0) * DAY_S + (SENT.length - index) * 10);
  const firstEvents = SENT.reduce((sum, s) => sum + s.events, 0);
  let groups = await engine.settle(SENT.length, firstEvents);
  for (const s of SENT.filter((candidate) => candidate.resolved || candidate.regressed)) {
    const response = await server.api(`/api/0/issues/${groups.get(s.title)!.id}/`, { method: "PUT", body: JSON.stringify({ status: "resolved" }), headers: { "content-type": "application/json" } });
    assert.equal(response.status, 200);
  }
  for (const [key, event] of regressions) await engine.send(SENT.find((s) => s.key === key)!.project, [event]);
  groups = await engine.settle(SENT.length, firstEvents + regressions.size);
  engine.ids = new Map(SENT.map((s) => [s.key, groups.get(s.title)!.id]));
  // Triage rows as the workflow writes them (its API is another branch's): assignment, bookmark, review.
  const ids = await server.withStorage(async (storage) => {
    const org = (await storage.organizations.getBySlug("default"))!;
    const owner = (await storage.accounts.users.getByEmail(OWNER_EMAIL))!;
    const team = (await storage.accounts.teams.getBySlug(org.id, "backend"))!;
    return { owner: Number(owner.id), team: Number(team.id) };
  });
  for (const s of SENT) {
    const id = Number(engine.ids.get(s.key));
    if (s.assignee === "me") await engine.sql("INSERT INTO issue_assignments (issue_id, user_id, team_id, date_assigned) VALUES (?, ?, NULL, ?)", [id, ids.owner, Date.now()]);
    if (s.assignee === "#backend") await engine.sql("INSERT INTO issue_assignments (issue_id, user_id, team_id, date_assigned) VALUES (?, NULL, ?, ?)", [id, ids.team, Date.now()]);
    if (s.bookmarked) await engine.sql("INSERT INTO issue_bookmarks (issue_id, user_id, date_created) VALUES (?, ?, ?)", [id, ids.owner, Date.now()]);
    if (s.reviewed) await engine.sql("INSERT INTO issue_reviews (issue_id, user_id, date_reviewed) VALUES (?, ?, ?)", [id, ids.owner, Date.now()]);
  }
  return engine;
}

const engines: Engine[] = [];
const schemas: TestSchema[] = [];
const withPostgres = await postgresForTests("issue search on PostgreSQL");

before(async () => {
  await capture();
  engines.push(await startEngine("sqlite", null));
  if (withPostgres) {
    const schema = await freshSchema();
    schemas.push(schema);
    engines.push(await startEngine("postgres", schema));
  }
});

after(async () => {
  await Sentry.close();
  for (const engine of engines) await engine.server.stop();
  for (const schema of schemas) await schema.drop();
});

const keysOf = (engine: Engine, groups: Group[]) => {
  const byId = new Map([...engine.ids].map(([key, id]) => [id, key]));
  return groups.map((group) => byId.get(group.id) ?? `?${group.title}`).sort();
};

for (const name of ["sqlite", "postgres"]) {
  describe(`issue search on ${name}`, () => {
    const engine = () => {
      const found = engines.find((candidate) => candidate.name === name);
      return found;
    };

    it("returns exactly the issues each query form names", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      for (const [query, expected] of CASES) {
        const { status: code, body } = await e.get(`/api/0/organizations/default/issues/?project=-1&limit=100&query=${encodeURIComponent(query)}`);
        assert.equal(code, 200, `${query}: ${JSON.stringify(body)}`);
        assert.deepEqual(keysOf(e, body as Group[]), SENT.filter(expected).map((s) => s.key).sort(), `query ${JSON.stringify(query)}`);
      }
    });

    it("reads a missing query as is:unresolved, and sorts by events, users, priority, first seen", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      const list = async (params: string) => {
        const { status: code, body } = await e.get(`/api/0/organizations/default/issues/?project=-1&limit=100&${params}`);
        assert.equal(code, 200, JSON.stringify(body));
        const byId = new Map([...e.ids].map(([key, id]) => [id, key]));
        return (body as Group[]).map((group) => byId.get(group.id));
      };
      assert.deepEqual((await list("")).sort(), SENT.filter((s) => status(s) === "unresolved").map((s) => s.key).sort());
      const all = SENT.map((s) => s.key);
      // Events, most first; ties broken by the newer issue (higher id), as the list pages.
      const byEvents = [...SENT].sort((a, b) => timesSeen(b) - timesSeen(a) || Number(e.ids.get(b.key)) - Number(e.ids.get(a.key))).map((s) => s.key);
      assert.deepEqual(await list("query=&sort=freq"), byEvents);
      const users = (s: Sent) => (s.user ? 1 : 0);
      const byUsers = [...SENT].sort((a, b) => users(b) - users(a) || Number(e.ids.get(b.key)) - Number(e.ids.get(a.key))).map((s) => s.key);
      assert.deepEqual(await list("query=&sort=user"), byUsers);
      const rank = (s: Sent) => (s.level === "fatal" || s.level === "error" ? 2 : s.level === "warning" ? 1 : 0);
      const priorities = (await list("query=&sort=priority")).map((key) => rank(SENT.find((s) => s.key === key)!));
      assert.deepEqual(priorities, [...priorities].sort((a, b) => b - a));
      assert.equal((await list("query=&sort=new")).at(-1), "I", "I was first seen 10 days ago, sent before J");
      assert.equal((await list("query=&sort=new")).length, all.length);
      // Pages of 2 over both projects (one index walk per project, merged) add up to the whole list.
      for (const sort of ["date", "freq", "priority"]) {
        const whole = await list(`query=&sort=${sort}`);
        const paged: (string | undefined)[] = [];
        let next: string | null = `/api/0/organizations/default/issues/?project=-1&query=&sort=${sort}&limit=2`;
        while (next) {
          const response: Response = await e.server.api(next);
          const byId = new Map([...e.ids].map(([key, id]) => [id, key]));
          paged.push(...((await response.json()) as Group[]).map((group) => byId.get(group.id)));
          const link = /<([^>]+)>; rel="next"; results="true"/.exec(response.headers.get("link") ?? "")?.[1];
          next = link ? link.replace(/^https?:\/\/[^/]+/, "") : null;
        }
        assert.deepEqual(paged, whole, `pages of sort=${sort}`);
      }
    });

    it("takes Sentry's statsPeriod and start/end, and refuses bad ones", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      const keys = async (params: string) => {
        const { status: code, body } = await e.get(`/api/0/organizations/default/issues/?project=-1&query=&limit=100&${params}`);
        assert.equal(code, 200, JSON.stringify(body));
        return keysOf(e, body as Group[]);
      };
      assert.deepEqual(await keys("statsPeriod=14d"), SENT.map((s) => s.key).sort());
      // A regression is an event now: J, first seen 10 days ago, has events in the last day too.
      const seenToday = (s: Sent) => recent(s) || s.regressed === true;
      assert.deepEqual(await keys("statsPeriod=24h"), SENT.filter(seenToday).map((s) => s.key).sort());
      const twoDaysAgo = new Date(Date.now() - 2 * DAY_S * 1000).toISOString();
      assert.deepEqual(await keys(`end=${encodeURIComponent(twoDaysAgo)}`), SENT.filter((s) => !recent(s)).map((s) => s.key).sort());
      assert.deepEqual(await keys(`start=${encodeURIComponent(twoDaysAgo)}`), SENT.filter(seenToday).map((s) => s.key).sort());
      // A project's list takes statsPeriod as the sparkline, as Sentry's does: 14 UTC days, today last.
      const daily = await e.get(`/api/0/projects/default/default/issues/?query=&statsPeriod=14d&limit=100`);
      assert.equal(daily.status, 200);
      const today = Math.floor(Date.now() / (DAY_S * 1000)) * DAY_S;
      for (const group of daily.body as (Group & { stats: { "14d": [number, number][] } })[]) {
        const sent = SENT.find((s) => s.title === group.title)!;
        const series = group.stats["14d"];
        assert.deepEqual(series.map(([day]) => day), Array.from({ length: 14 }, (_, n) => today - (13 - n) * DAY_S));
        assert.equal(series.reduce((sum, [, count]) => sum + count, 0), timesSeen(sent), sent.key);
      }
      const grouped = await e.get(`/api/0/organizations/default/issues/?project=-1&query=&groupStatsPeriod=14d&statsPeriod=14d`);
      assert.ok((grouped.body as { stats: Record<string, unknown> }[]).every((group) => Object.keys(group.stats).join() === "14d"));
      const refused = await e.get("/api/0/organizations/default/issues/?statsPeriod=fortnight");
      assert.deepEqual(refused, { status: 400, body: { detail: "invalid statsPeriod: fortnight (a number and a unit s, m, h, d or w, e.g. 24h, 14d)" } });
    });

    it("refuses a malformed query with a 400 naming the token", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      for (const [query, detail] of REFUSED) {
        const answer = await e.get(`/api/0/projects/default/default/issues/?query=${encodeURIComponent(query)}`);
        assert.deepEqual(answer, { status: 400, body: { detail } }, query);
      }
    });

    it("serves an issue's tags, one tag, and its values page by page (Sentry's tag endpoints)", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      const a = SENT.find((s) => s.key === "A")!;
      const id = e.ids.get("A")!;
      const counts = new Map<string, number>();
      for (const browser of a.browsers!) counts.set(browser, (counts.get(browser) ?? 0) + 1);
      const expected = [...counts].sort(([v1, c1], [v2, c2]) => c2 - c1 || (v1 < v2 ? -1 : 1));
      const tags = (await e.get(`/api/0/issues/${id}/tags/`)).body as { key: string; totalValues: number; topValues: { value: string; count: number }[] }[];
      const browser = tags.find((tag) => tag.key === "shop.browser")!;
      assert.equal(browser.totalValues, a.events);
      assert.deepEqual(browser.topValues.map((value) => [value.value, value.count]), expected);
      assert.deepEqual(tags.find((tag) => tag.key === "flow")!.topValues.map((value) => [value.value, value.count]), [["checkout", a.events]]);
      const one = await e.get(`/api/0/issues/${id}/tags/shop.browser/`);
      assert.equal(one.status, 200);
      assert.deepEqual({ ...(one.body as Record<string, unknown>), topValues: undefined }, { key: "shop.browser", name: "shop.browser", totalValues: a.events, uniqueValues: counts.size, topValues: undefined });
      const paged: [string, number][] = [];
      let next: string | null = `/api/0/issues/${id}/tags/shop.browser/values/?per_page=1`;
      while (next) {
        const response: Response = await e.server.api(next);
        assert.equal(response.status, 200);
        const page = (await response.json()) as { key: string; value: string; count: number; firstSeen: string }[];
        assert.ok(page.every((value) => value.key === "shop.browser" && !Number.isNaN(Date.parse(value.firstSeen))));
        paged.push(...page.map((value): [string, number] => [value.value, value.count]));
        const link = /<([^>]+)>; rel="next"; results="true"/.exec(response.headers.get("link") ?? "")?.[1];
        next = link ? link.replace(/^https?:\/\/[^/]+/, "") : null;
      }
      assert.deepEqual(paged, expected);
      assert.deepEqual(await e.get(`/api/0/issues/${id}/tags/nope/`), { status: 404, body: { detail: "tag nope not found on this issue" } });
      assert.deepEqual(await e.get(`/api/0/issues/${id}/tags/nope/values/`), { status: 404, body: { detail: "tag nope not found on this issue" } });
      assert.deepEqual(await e.get(`/api/0/issues/${id}/tags/flow/values/?per_page=0`), { status: 400, body: { detail: "invalid per_page: 0 (1-1000)" } });
      // The per-field user keys serve search only: the tag list shows the `user` tag, as Sentry's does.
      const h = SENT.find((s) => s.key === "H")!;
      const hTags = (await e.get(`/api/0/issues/${e.ids.get("H")!}/tags/`)).body as { key: string; topValues: { value: string; count: number }[] }[];
      assert.deepEqual(hTags.filter((tag) => tag.key.startsWith("user")).map((tag) => [tag.key, tag.topValues.map((value) => [value.value, value.count])]), [["user", [["id:7", h.events]]]]);
      assert.deepEqual(await e.get(`/api/0/issues/${e.ids.get("H")!}/tags/user.email/`), { status: 404, body: { detail: "tag user.email not found on this issue" } });
      assert.deepEqual(await e.get(`/api/0/issues/${e.ids.get("H")!}/tags/user.email/values/`), { status: 404, body: { detail: "tag user.email not found on this issue" } });
    });

    it("saves searches per person and lists them (Sentry's /searches/)", async (t) => {
      const e = engine();
      if (!e) return t.skip("engine not running");
      const post = async (body: unknown) => {
        const response = await e.server.api("/api/0/organizations/default/searches/", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const saved = await post({ type: 0, name: "My checkout bugs", query: "flow:checkout* is:unresolved", sort: "freq", visibility: "organization" });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      assert.deepEqual({ ...saved.body, id: undefined, dateCreated: undefined }, {
        id: undefined, dateCreated: undefined, type: 0, name: "My checkout bugs", query: "flow:checkout* is:unresolved", sort: "freq", visibility: "organization", isGlobal: false, isPinned: false,
      });
      const bad = await post({ name: "broken", query: "is:nope" });
      assert.equal(bad.status, 400);
      assert.match(String(bad.body.detail), /is:nope/);
      const { body } = await e.get("/api/0/organizations/default/searches/");
      assert.deepEqual((body as { name: string }[]).map((search) => search.name), ["My checkout bugs"]);
      const deleted = await e.server.api(`/api/0/organizations/default/searches/${String(saved.body.id)}/`, { method: "DELETE" });
      assert.equal(deleted.status, 204);
      assert.deepEqual((await e.get("/api/0/organizations/default/searches/")).body, []);
    });
  });
}
