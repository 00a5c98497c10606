/**
 * The /api/0 REST API against a real server: each endpoint's whole response in Sentry's shape, its
 * error answers, and Sentry's Link paging. Events come from envelopes captured from the real SDK,
 * re-addressed to a project each test group creates for itself. Requests never follow redirects:
 * Sentry's paths end in "/", and a redirect there would break clients that POST or PUT.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer } from "../helpers/server";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");
const FIXTURE_KEY = "0123456789abcdef0123456789abcdef";
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DATE = "<date>";

let server: TestServer;

interface Answer {
  status: number;
  body: unknown;
  link: string | null;
}

/** fetch's error when the server reset a pooled keep-alive connection the request went out on. */
const isConnectionReset = (error: unknown) =>
  error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === "ECONNRESET";

async function call(method: string, pathAndQuery: string, body?: unknown): Promise<Answer> {
  const send = () =>
    server.api(pathAndQuery, {
      method,
      redirect: "manual",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  // A server may close an idle keep-alive connection at any time, and a client retries an idempotent
  // request that met the reset once (RFC 9112 §9.3.1). Here the server's keep-alive timeout (5 s,
  // server.ts) closed an idle connection of fetch's pool just as fetch sent on it: after the
  // suite's chunked upload about once in 100 runs (Node's socketOnTimeout, traced in the server).
  const response = await send().catch((error: unknown) => (method === "GET" && isConnectionReset(error) ? send() : Promise.reject(error)));
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown), link: response.headers.get("link") };
}

async function ok<T>(method: string, pathAndQuery: string, body?: unknown, status = 200): Promise<T> {
  const answer = await call(method, pathAndQuery, body);
  assert.equal(answer.status, status, `${method} ${pathAndQuery}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

async function expectError(method: string, pathAndQuery: string, status: number, detail: string, body?: unknown) {
  const answer = await call(method, pathAndQuery, body);
  assert.deepStrictEqual({ status: answer.status, body: answer.body }, { status, body: { detail } });
}

async function expectBadRequest(method: string, pathAndQuery: string, detail: string, causes: string[], body?: unknown) {
  const answer = await call(method, pathAndQuery, body);
  assert.deepStrictEqual({ status: answer.status, body: answer.body }, { status: 400, body: { detail, causes } });
}

/** Replaces ISO timestamps by a marker, so whole objects compare; a date in any other format stays and fails. */
function withDates(value: unknown): unknown {
  if (typeof value === "string") return ISO_DATE.test(value) ? DATE : value;
  if (Array.isArray(value)) return value.map(withDates);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withDates(inner)]));
  }
  return value;
}

type Json = Record<string, unknown>;
type Group = Json & { id: string; stats?: { "24h": [number, number][] } };
interface ProjectJson extends Json {
  id: string;
  slug: string;
}
interface KeyJson extends Json {
  public: string;
}

/** Sentry's 24-hour series: 24 consecutive hour starts (Unix seconds) ending now, with `total` events. */
function assertStats(group: Group, total: number): Group {
  const series = group.stats?.["24h"];
  assert.ok(series, "stats.24h present");
  assert.equal(series.length, 24);
  const hour = Math.floor(Date.now() / 3_600_000) * 3600;
  assert.deepStrictEqual(
    series.map(([at]) => at),
    Array.from({ length: 24 }, (_, index) => hour - (23 - index) * 3600),
  );
  assert.equal(series.reduce((sum, [, count]) => sum + count, 0), total);
  const rest = { ...group };
  delete rest.stats;
  return rest;
}

async function createProject(name: string, platform: string | null = "node"): Promise<{ project: ProjectJson; key: KeyJson }> {
  const project = await ok<ProjectJson>("POST", `/api/0/teams/${server.organizationSlug}/default/projects/`, { name, platform }, 201);
  const [key] = await ok<KeyJson[]>("GET", `/api/0/projects/${server.organizationSlug}/${project.slug}/keys/`);
  assert.ok(key);
  return { project, key };
}

const fixtureEvent = (name: string) =>
  JSON.parse(readFileSync(path.join(fixtures, `${name}.envelope`), "latin1").split("\n")[2]!) as Json & {
    contexts: Json;
    modules: Json;
    exception: { values: { type?: string; value: string; mechanism: Json; stacktrace: { frames: Json[] } }[] };
  };

/** Sends a captured envelope to `project` with `key` and a fresh (or given) event id; returns the id. */
async function send(name: string, project: ProjectJson, key: KeyJson, eventId = crypto.randomUUID().replace(/-/g, "")) {
  const raw = readFileSync(path.join(fixtures, `${name}.envelope`), "latin1");
  const header = JSON.parse(raw.slice(0, raw.indexOf("\n"))) as { event_id: string };
  const body = raw.split(FIXTURE_KEY).join(key.public).split(header.event_id).join(eventId);
  const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/?sentry_key=${key.public}`, {
    method: "POST",
    body: Buffer.from(body, "latin1"),
  });
  assert.deepStrictEqual(await response.json(), { id: eventId });
  return eventId;
}

const organizationJson = () => ({
  id: "1",
  slug: "default",
  name: "Default organization",
  dateCreated: DATE,
  status: { id: "active", name: "active" },
  isEarlyAdopter: false,
  require2FA: false,
  avatar: { avatarType: "letter_avatar", avatarUuid: null },
  links: { organizationUrl: server.baseUrl, regionUrl: server.baseUrl },
  hasAuthProvider: false,
  features: [],
});

const projectJson = (id: string, slug: string, name: string, platform: string | null) => ({
  id,
  slug,
  name,
  platform,
  dateCreated: DATE,
  status: "active",
  isBookmarked: false,
  isMember: true,
  hasAccess: true,
  isPublic: false,
  isInternal: false,
  features: [],
  avatar: { avatarType: "letter_avatar", avatarUuid: null },
  organization: organizationJson(),
});

const keyJson = (projectId: string, publicKey: string, name: string) => {
  const api = `${server.baseUrl}/api/${projectId}`;
  const dsn = `${server.baseUrl.replace("://", `://${publicKey}@`)}/${projectId}`;
  return {
    id: publicKey,
    name,
    label: name,
    public: publicKey,
    secret: null,
    projectId: Number(projectId),
    isActive: true,
    rateLimit: null,
    dateCreated: DATE,
    dsn: {
      secret: dsn,
      public: dsn,
      csp: `${api}/csp-report/?sentry_key=${publicKey}`,
      security: `${api}/security/?sentry_key=${publicKey}`,
      minidump: `${api}/minidump/?sentry_key=${publicKey}`,
      nel: `${api}/nel/?sentry_key=${publicKey}`,
      unreal: `${api}/unreal/${publicKey}/`,
    },
  };
};

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

describe("organizations, projects and keys", () => {
  it("lists organizations", async () => {
    assert.deepStrictEqual(withDates(await ok("GET", "/api/0/organizations/")), [organizationJson()]);
  });

  it("creates a project with a default key, lists it, and lists and creates its keys", async () => {
    const created = await call("POST", "/api/0/teams/default/default/projects/", { name: "Billing API", platform: "node" });
    assert.equal(created.status, 201);
    const project = created.body as ProjectJson;
    assert.match(project.id, /^\d+$/);
    assert.deepStrictEqual(withDates(project), projectJson(project.id, "billing-api", "Billing API", "node"));

    const listed = await ok<ProjectJson[]>("GET", "/api/0/organizations/default/projects/");
    assert.deepStrictEqual(withDates(listed.find((p) => p.id === project.id)), projectJson(project.id, "billing-api", "Billing API", "node"));

    const [first, ...others] = await ok<KeyJson[]>("GET", "/api/0/projects/default/billing-api/keys/");
    assert.ok(first);
    assert.equal(others.length, 0);
    assert.match(first.public, /^[0-9a-f]{32}$/);
    assert.deepStrictEqual(withDates(first), keyJson(project.id, first.public, "Default"));

    const named = await ok<KeyJson>("POST", "/api/0/projects/default/billing-api/keys/", { name: "CI" }, 201);
    assert.deepStrictEqual(withDates(named), keyJson(project.id, named.public, "CI"));
    // Unnamed keys go by the start of their public key, as in Sentry.
    const unnamed = await ok<KeyJson>("POST", `/api/0/projects/default/${project.id}/keys/`, undefined, 201);
    assert.deepStrictEqual(withDates(unnamed), keyJson(project.id, unnamed.public, unnamed.public.slice(0, 14)));

    const keys = await ok<KeyJson[]>("GET", "/api/0/projects/default/billing-api/keys/");
    assert.deepStrictEqual(keys.map((key) => key.public), [first.public, named.public, unnamed.public]);
    // A new key is accepted by ingest at once.
    await send("node-message", project, named);
  });

  it("creates with an explicit slug and without a platform; answers 409 for a taken slug", async () => {
    const project = await ok<ProjectJson>("POST", "/api/0/teams/default/default/projects/", { name: "Web", slug: "web-app" }, 201);
    assert.deepStrictEqual(withDates(project), projectJson(project.id, "web-app", "Web", null));
    await expectError("POST", "/api/0/teams/default/default/projects/", 409, 'a project with the slug "web-app" already exists in this organization', {
      name: "Other",
      slug: "web-app",
    });
  });

  it("rejects bad bodies and unknown organizations and projects", async () => {
    await expectError("POST", "/api/0/teams/default/default/projects/", 400, "invalid JSON body", "{name:");
    await expectBadRequest("POST", "/api/0/teams/default/default/projects/", "invalid request body: name: Invalid input: expected string, received undefined", [
      "name: Invalid input: expected string, received undefined",
    ], {});
    await expectBadRequest("POST", "/api/0/teams/default/default/projects/", "invalid request body: slug: must not be only digits", [
      "slug: must not be only digits",
    ], { name: "x", slug: "123" });
    await expectError("POST", "/api/0/teams/nope/t/projects/", 404, "organization not found", { name: "x" });
    await expectError("GET", "/api/0/organizations/nope/projects/", 404, "organization not found");
    await expectError("GET", "/api/0/projects/default/nope/keys/", 404, "project not found");
    await expectError("POST", "/api/0/projects/default/nope/keys/", 404, "project not found", { name: "x" });
    await expectError("POST", "/api/0/projects/default/default/keys/", 400, "invalid JSON body", "[");
    await expectBadRequest("POST", "/api/0/projects/default/default/keys/", "invalid request body: name: Invalid input: expected string, received number", [
      "name: Invalid input: expected string, received number",
    ], { name: 5 });
    await expectError("GET", "/api/0/no-such-endpoint/", 404, "The requested resource does not exist");
    await expectError("POST", "/api/0/organizations/", 405, 'Method "POST" not allowed.', {});
    await expectError("DELETE", "/api/0/projects/default/default/keys/", 405, 'Method "DELETE" not allowed.');
  });

  it("refuses a body over 1 MiB with 413, whether its length is declared or it is chunked, creating nothing", async () => {
    const huge = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    await expectError("POST", "/api/0/projects/default/default/keys/", 413, "request body larger than 1048576 bytes", huge);
    const chunks = [JSON.stringify({ name: "big" }).slice(0, -1), `, "pad": "${"y".repeat(1024 * 1024)}"}`];
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const response = await server.api("/api/0/projects/default/default/keys/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { detail: "request body larger than 1048576 bytes" });
    const keys = await ok<KeyJson[]>("GET", "/api/0/projects/default/default/keys/");
    assert.equal(keys.some((key) => key.name === "big" || String(key.name).startsWith("xxx")), false);
  });
});

describe("issues", () => {
  let project: ProjectJson;
  let key: KeyJson;
  let errorIssue: Group;
  let messageIssue: Group;
  let fingerprintIssue: Group;
  const issuesPath = () => `/api/0/projects/default/${project.slug}/issues/`;

  const groupJson = (issue: Group, fields: Json) => ({
    id: issue.id,
    shareId: null,
    permalink: `${server.baseUrl}/organizations/default/issues/${issue.id}/`,
    logger: null,
    status: "unresolved",
    statusDetails: {},
    substatus: "new",
    isPublic: false,
    platform: "node",
    project: { id: project.id, name: project.name, slug: project.slug, platform: "node" },
    issueType: "error",
    issueCategory: "error",
    priorityLockedAt: null,
    numComments: 0,
    assignedTo: null,
    inbox: { reason: 0, reason_details: null, date_added: DATE },
    isBookmarked: false,
    isSubscribed: false,
    subscriptionDetails: null,
    hasSeen: false,
    annotations: [],
    count: "1",
    userCount: 0,
    firstSeen: DATE,
    lastSeen: DATE,
    firstRelease: { version: "periscope-fixtures@1.0.0" },
    lastRelease: { version: "periscope-fixtures@1.0.0" },
    ...fields,
  });
  const errorFields = () => ({
    shortId: errorIssue.shortId,
    title: "Error: outer",
    culprit: "capture-fixtures.ts in runNodeClient",
    level: "error",
    type: "error",
    priority: "high",
    metadata: { type: "Error", value: "outer", filename: "/opt/store/scripts/capture-fixtures.ts", function: "runNodeClient" },
  });

  before(async () => {
    ({ project, key } = await createProject("Issue Stream"));
    await send("node-error-cause", project, key);
    await send("node-message", project, key);
    await send("node-fingerprint", project, key);
    const listed = await ok<Group[]>("GET", `${issuesPath()}?sort=new`);
    assert.equal(listed.length, 3);
    [fingerprintIssue, messageIssue, errorIssue] = listed.map((group) => assertStats(group, 1)) as [Group, Group, Group];
  });

  it("lists a project's issues in Sentry's group shape, newest first", async () => {
    for (const issue of [errorIssue, messageIssue, fingerprintIssue]) {
      assert.match(issue.id, /^\d+$/);
      assert.match(String(issue.shortId), new RegExp(`^${project.slug.toUpperCase()}-\\d+$`));
    }
    assert.deepStrictEqual(withDates(errorIssue), groupJson(errorIssue, errorFields()));
    assert.deepStrictEqual(
      withDates(messageIssue),
      groupJson(messageIssue, {
        shortId: messageIssue.shortId,
        title: "hello from captureMessage",
        culprit: "capture-fixtures.ts in runNodeClient",
        level: "info",
        type: "default",
        priority: "low",
        metadata: { title: "hello from captureMessage" },
      }),
    );
    assert.equal(fingerprintIssue.title, "Error: fingerprinted");
  });

  it("lists the same issues through the organization, filtered by project", async () => {
    const viaOrganization = await ok<Group[]>("GET", `/api/0/organizations/default/issues/?project=${project.id}&sort=new`);
    assert.deepStrictEqual(
      viaOrganization.map((group) => withDates(assertStats(group, 1))),
      [fingerprintIssue, messageIssue, errorIssue].map(withDates),
    );
    const everywhere = await ok<Group[]>("GET", "/api/0/organizations/default/issues/?project=-1&query=");
    assert.ok([errorIssue, messageIssue, fingerprintIssue].every((issue) => everywhere.some((g) => g.id === issue.id)));
    await expectError("GET", "/api/0/organizations/default/issues/?project=999999", 400, "unknown project id: 999999");
    await expectError("GET", "/api/0/organizations/default/issues/?project=abc", 400, "invalid project id: abc");
    await expectError("GET", "/api/0/organizations/nope/issues/", 404, "organization not found");
    await expectError("GET", "/api/0/projects/default/nope/issues/", 404, "project not found");
  });

  it("parses Sentry's search tokens and free text", async () => {
    const ids = async (query: string) =>
      (await ok<Group[]>("GET", `${issuesPath()}?sort=new&query=${encodeURIComponent(query)}`)).map((group) => group.id);
    assert.deepStrictEqual(await ids("level:info"), [messageIssue.id]);
    assert.deepStrictEqual(await ids("is:unresolved level:error"), [fingerprintIssue.id, errorIssue.id]);
    assert.deepStrictEqual(await ids('release:"periscope-fixtures@1.0.0" outer'), [errorIssue.id]);
    assert.deepStrictEqual(await ids("environment:fixtures captureMessage"), [messageIssue.id]);
    assert.deepStrictEqual(await ids("environment:production"), []);
    assert.deepStrictEqual(await ids("is:resolved"), []);
    assert.deepStrictEqual(await ids("handled:yes level:info"), [messageIssue.id]);
    const withoutStats = await ok<Group[]>("GET", `${issuesPath()}?statsPeriod=&query=level:info`);
    assert.deepStrictEqual(withoutStats.map(withDates), [withDates(messageIssue)]);
  });

  it("rejects bad list parameters with a 400 naming them", async () => {
    await expectError(
      "GET",
      `${issuesPath()}?query=is:bookmarked`,
      400,
      'invalid query: is:bookmarked: unknown value "bookmarked" (supported: unresolved, resolved, ignored, archived, assigned, unassigned, for_review, new, ongoing, regressed, escalating)',
    );
    await expectError("GET", `${issuesPath()}?statsPeriod=7d`, 400, 'invalid statsPeriod: 7d (supported: "24h", "14d", "")');
    await expectBadRequest("GET", `${issuesPath()}?sort=trends`, "invalid issue list parameters", [
      'sort: Invalid option: expected one of "date"|"new"|"freq"|"user"|"priority"',
    ]);
    await expectBadRequest("GET", `${issuesPath()}?limit=0`, "invalid issue list parameters", ["limit: Too small: expected number to be >=1"]);
    await expectError("GET", `${issuesPath()}?cursor=not-a-cursor`, 400, "invalid cursor: not-a-cursor");
  });

  it("pages with Sentry's Link header", async () => {
    const seen: string[] = [];
    let next = `${issuesPath()}?sort=new&limit=2&statsPeriod=`;
    for (let page = 0; page < 2; page += 1) {
      const answer = await call("GET", next);
      assert.equal(answer.status, 200);
      seen.push(...(answer.body as Group[]).map((group) => group.id));
      const cursor = /rel="next"; results="(true|false)"; cursor="([^"]*)"/.exec(answer.link ?? "");
      const base = `${server.baseUrl}${issuesPath()}?sort=new&limit=2&statsPeriod=`;
      if (page === 0) {
        assert.ok(cursor?.[2]);
        assert.equal(
          answer.link,
          `<${base}>; rel="previous"; results="false"; cursor="", <${base}&cursor=${cursor[2]}>; rel="next"; results="true"; cursor="${cursor[2]}"`,
        );
        next = `${issuesPath()}?sort=new&limit=2&statsPeriod=&cursor=${cursor[2]}`;
      } else {
        assert.equal(answer.link, `<${base}>; rel="previous"; results="false"; cursor="", <${base}>; rel="next"; results="false"; cursor=""`);
      }
    }
    assert.deepStrictEqual(seen, [fingerprintIssue.id, messageIssue.id, errorIssue.id]);
  });

  it("shows one issue, also under the organization alias; 404 for unknown ids", async () => {
    assert.deepStrictEqual(await ok("GET", `/api/0/issues/${errorIssue.id}/`), errorIssue);
    assert.deepStrictEqual(await ok("GET", `/api/0/organizations/default/issues/${errorIssue.id}/`), errorIssue);
    await expectError("GET", `/api/0/organizations/other/issues/${errorIssue.id}/`, 404, "organization not found");
    await expectError("GET", "/api/0/issues/999999/", 404, "issue not found");
    await expectError("GET", "/api/0/issues/abc/", 404, "issue not found");
  });

  it("changes status; is:resolved and is:unresolved follow", async () => {
    const put = (status: unknown) => ok<Group>("PUT", `/api/0/issues/${errorIssue.id}/`, { status });
    const base = errorIssue;
    assert.deepStrictEqual(await put("resolved"), { ...base, status: "resolved", substatus: null, inbox: false });
    const ids = async (query: string) => (await ok<Group[]>("GET", `${issuesPath()}?query=${query}`)).map((group) => group.id);
    assert.deepStrictEqual(await ids("is:resolved"), [errorIssue.id]);
    assert.ok(!(await ids("is:unresolved")).includes(errorIssue.id));
    assert.ok((await ids("")).includes(errorIssue.id), "an empty query lists every status");

    assert.deepStrictEqual(await put("ignored"), { ...base, status: "ignored", substatus: "archived_forever", inbox: false });
    assert.deepStrictEqual(await ids("is:ignored"), [errorIssue.id]);
    const viaAlias = await ok<Group>("PUT", `/api/0/organizations/default/issues/${errorIssue.id}/`, { status: "unresolved" });
    assert.deepStrictEqual(viaAlias, { ...base, status: "unresolved", substatus: "ongoing" });
    assert.ok((await ids("is:unresolved")).includes(errorIssue.id));
  });

  it("rejects bad status changes", async () => {
    const target = `/api/0/issues/${errorIssue.id}/`;
    await expectError("PUT", target, 400, "status: expected one of unresolved, resolved, ignored, resolvedInNextRelease", { status: "fixed" });
    await expectError("PUT", target, 400, "nothing to change: give status, assignedTo, isBookmarked, inbox or merge", {});
    await expectError("PUT", target, 400, "statusDetails.ignoreCount: expected a positive integer", { status: "ignored", statusDetails: { ignoreCount: 0 } });
    await expectError("PUT", target, 400, 'assignedTo: unknown assignee "nobody@example.com": not a member or team of this organisation', { assignedTo: "nobody@example.com" });
    await expectError("PUT", target, 400, "invalid JSON body", "status=resolved");
    await expectBadRequest("PUT", target, "invalid request body: Invalid input: expected object, received array", [
      "Invalid input: expected object, received array",
    ], []);
    await expectError("PUT", "/api/0/issues/999999/", 404, "issue not found", { status: "resolved" });
    await expectError("POST", target, 405, 'Method "POST" not allowed.');
    assert.equal(((await ok<Group>("GET", target)) as Json).status, "unresolved");
  });
});

describe("events", () => {
  let project: ProjectJson;
  let issueId: string;
  // Ids in sending order, and sorting the same way, so ties on the timestamp cannot reorder them.
  const older = "aaaaaaaaaaaa4aaa8aaaaaaaaaaaaaaa";
  const newer = "bbbbbbbbbbbb4bbb8bbbbbbbbbbbbbbb";
  const fixture = fixtureEvent("node-error-cause");

  /** Sentry's frame shape for a frame the SDK sent (snake_case in, camelCase out, source as [[line, text]]). */
  const frameJson = (frame: Json) => {
    const lineNo = frame.lineno as number;
    const pre = (frame.pre_context as string[] | undefined) ?? [];
    const lines = [...pre, frame.context_line as string, ...((frame.post_context as string[] | undefined) ?? [])];
    return {
      filename: frame.filename,
      absPath: null,
      module: frame.module,
      package: null,
      platform: null,
      instructionAddr: null,
      symbolAddr: null,
      function: frame.function,
      rawFunction: null,
      symbol: null,
      context: lines.map((line, index) => [lineNo - pre.length + index, line]),
      lineNo,
      colNo: frame.colno,
      inApp: frame.in_app,
      trust: null,
      errors: null,
      vars: null,
      // What source-map resolution noted on the frame (resolved with what, or why not); none here.
      data: null,
    };
  };

  const eventJson = (eventId: string, neighbours: { previousEventID: string | null; nextEventID: string | null }) => ({
    id: eventId,
    groupID: issueId,
    eventID: eventId,
    projectID: project.id,
    type: "error",
    title: "Error: outer",
    message: "",
    culprit: "capture-fixtures.ts in runNodeClient",
    location: null,
    metadata: { type: "Error", value: "outer", filename: "/opt/store/scripts/capture-fixtures.ts", function: "runNodeClient" },
    platform: "node",
    dateCreated: DATE,
    dateReceived: DATE,
    dist: null,
    release: { version: "periscope-fixtures@1.0.0" },
    tags: [
      ["environment", "fixtures"],
      ["handled", "yes"],
      ["level", "error"],
      ["mechanism", "generic"],
      ["os", "Debian 12.11"],
      ["os.name", "Debian"],
      ["release", "periscope-fixtures@1.0.0"],
      ["runtime", "node v20.20.2"],
      ["runtime.name", "node"],
      ["server_name", "vm"],
    ].map(([key, value]) => ({ key, value })),
    user: null,
    contexts: withDates(fixture.contexts),
    sdk: { name: "sentry.javascript.node", version: "11.12.0" },
    context: {},
    packages: fixture.modules,
    // Nothing in this fixture is filtered by data scrubbing.
    _meta: {},
    entries: [
      {
        type: "exception",
        data: {
          // Sentry's stored order, kept by its API: the cause first, the thrown error last.
          values: fixture.exception.values.map((value) => ({
            type: value.type,
            value: value.value,
            module: null,
            mechanism: value.mechanism,
            threadId: null,
            stacktrace: { frames: value.stacktrace.frames.map(frameJson), framesOmitted: null, registers: null, hasSystemFrames: true },
            rawStacktrace: null,
          })),
          hasSystemFrames: true,
          excOmitted: null,
        },
      },
    ],
    errors: [],
    fingerprints: [fingerprint],
    crashFile: null,
    userReport: null,
    sdkUpdates: [],
    ...neighbours,
  });
  let fingerprint = "";

  before(async () => {
    let key: KeyJson;
    ({ project, key } = await createProject("Event Store"));
    await send("node-error-cause", project, key, older);
    await send("node-error-cause", project, key, newer);
    const [issue, ...rest] = await ok<Group[]>("GET", `/api/0/projects/default/${project.slug}/issues/`);
    assert.ok(issue);
    assert.equal(rest.length, 0);
    assert.equal(issue.count, "2");
    issueId = issue.id;
    // The grouping hash is opaque; check its form here and expect it on every event of the issue.
    const latest = await ok<{ fingerprints: string[] }>("GET", `/api/0/issues/${issueId}/events/latest/`);
    assert.equal(latest.fingerprints.length, 1);
    fingerprint = latest.fingerprints[0]!;
    assert.match(fingerprint, /^[0-9a-f]{32}$/);
  });

  it("serves the latest and oldest event of an issue with its neighbours", async () => {
    const latest = await ok<Json>("GET", `/api/0/issues/${issueId}/events/latest/`);
    assert.deepStrictEqual(withDates(latest), eventJson(newer, { previousEventID: older, nextEventID: null }));
    // The exception chain in Sentry's order, spelled out once: cause, then the error thrown.
    const values = (latest.entries as { data: { values: Json[] } }[])[0]!.data.values;
    assert.deepStrictEqual(values.map((value) => [value.type, value.value]), [["Error", "inner"], ["Error", "outer"]]);

    const oldest = await ok("GET", `/api/0/issues/${issueId}/events/oldest/`);
    assert.deepStrictEqual(withDates(oldest), eventJson(older, { previousEventID: null, nextEventID: newer }));
    assert.deepStrictEqual(await ok("GET", `/api/0/issues/${issueId}/events/${older}/`), oldest);
  });

  it("serves an event by project and id, dashes and case as Sentry accepts them", async () => {
    const expected = eventJson(older, { previousEventID: null, nextEventID: newer });
    const dashed = `${older.slice(0, 8)}-${older.slice(8, 12)}-${older.slice(12, 16)}-${older.slice(16, 20)}-${older.slice(20)}`.toUpperCase();
    for (const id of [older, dashed]) {
      assert.deepStrictEqual(withDates(await ok("GET", `/api/0/projects/default/${project.slug}/events/${id}/`)), expected);
    }
    await expectError("GET", `/api/0/projects/default/${project.slug}/events/${"c".repeat(32)}/`, 404, "event not found");
    await expectError("GET", `/api/0/projects/default/${project.slug}/events/not-an-id/`, 404, "event not found");
    await expectError("GET", `/api/0/projects/default/default/events/${older}/`, 404, "event not found");
    await expectError("GET", `/api/0/issues/${issueId}/events/${"c".repeat(32)}/`, 404, "event not found");
    await expectError("GET", "/api/0/issues/999999/events/latest/", 404, "issue not found");
  });

  it("lists an issue's events, newest first, paged with Link", async () => {
    const summary = (eventId: string) => ({
      id: eventId,
      "event.type": "error",
      groupID: issueId,
      eventID: eventId,
      projectID: project.id,
      message: "",
      title: "Error: outer",
      location: null,
      culprit: "capture-fixtures.ts in runNodeClient",
      user: null,
      tags: eventJson(eventId, { previousEventID: null, nextEventID: null }).tags,
      platform: "node",
      dateCreated: DATE,
      crashFile: null,
    });
    const all = await call("GET", `/api/0/issues/${issueId}/events/`);
    assert.deepStrictEqual(withDates(all.body), [summary(newer), summary(older)]);

    const base = `${server.baseUrl}/api/0/issues/${issueId}/events/?per_page=1`;
    const first = await call("GET", `/api/0/issues/${issueId}/events/?per_page=1`);
    assert.deepStrictEqual(withDates(first.body), [summary(newer)]);
    const cursor = /rel="next"; results="true"; cursor="([^"]+)"/.exec(first.link ?? "")?.[1];
    assert.ok(cursor, first.link ?? "no Link header");
    assert.equal(first.link, `<${base}>; rel="previous"; results="false"; cursor="", <${base}&cursor=${cursor}>; rel="next"; results="true"; cursor="${cursor}"`);
    const second = await call("GET", `/api/0/issues/${issueId}/events/?per_page=1&cursor=${cursor}`);
    assert.deepStrictEqual(withDates(second.body), [summary(older)]);
    assert.equal(second.link, `<${base}>; rel="previous"; results="false"; cursor="", <${base}>; rel="next"; results="false"; cursor=""`);

    const full = await ok<Json[]>("GET", `/api/0/issues/${issueId}/events/?full=true`);
    assert.deepStrictEqual(full.map(withDates), [
      eventJson(newer, { previousEventID: older, nextEventID: null }),
      eventJson(older, { previousEventID: null, nextEventID: newer }),
    ]);
  });

  it("rejects bad paging parameters and unknown issues", async () => {
    await expectError("GET", `/api/0/issues/${issueId}/events/?per_page=0`, 400, "invalid per_page: 0 (expected an integer from 1 to 100)");
    await expectError("GET", `/api/0/issues/${issueId}/events/?cursor=%21`, 400, "invalid cursor: !");
    await expectError("GET", "/api/0/issues/999999/events/", 404, "issue not found");
  });
});
