/**
 * The authorisation matrix: every `/api/0` route of the route table × every kind of caller → the
 * status the rules say (401 without an account, 404 outside the organisation or the caller's
 * teams' projects, 403 without the scope, success otherwise), and for successes the answer itself.
 * The route list comes from src/api/route-table.ts and is checked against the route files on disk,
 * so a route added without an entry (or a handler exported other than through `apiRoutes`) fails here.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { NOT_AUTHENTICATED } from "../../src/api/auth";
import { ROUTES, routeKeys, type RouteKey, type RouteRule } from "../../src/api/route-table";
import { allowsAny, effectiveScopes, SCOPES, type Role, type Scope } from "../../src/auth/scopes";
import { ANONYMOUS, eventually, headersFor, ingest, request, tokenOf, type Answer, type Credentials } from "../helpers/accounts";
import { createAuthzFixture, type AuthzFixture, type PersonName } from "../helpers/authz-fixture";
import { OWNER_EMAIL, startServer, type TestServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "..", "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * "METHOD /api/0/…/{param}/" for every method each app/api/0/**\/route.ts serves, and whether the file
 * declares its handlers the one way (`apiRoutes` under its own folder's path). `apiRoutes` serves
 * exactly the route table's methods for the path (its types require them), wrapped by their rules;
 * any other export of a method would bypass that and is flagged.
 */
function routesOnDisk(): { key: string; declared: boolean }[] {
  const found: { key: string; declared: boolean }[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const relative = path.relative(path.join(root, "app"), path.dirname(full)).split(path.sep);
        // The catch-all answers 404 for paths we do not serve; it is not a route.
        if (relative.some((segment) => segment.startsWith("[..."))) continue;
        const routePath = `/${relative.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}/`;
        const source = readFileSync(full, "utf8");
        const declaration = `export const { ${METHODS.join(", ")} } = apiRoutes(${JSON.stringify(routePath)}, {`;
        const declarations = source.split("export const {").length - 1;
        const otherExports = METHODS.filter((method) =>
          new RegExp(`export\\s+(async\\s+)?function\\s+${method}\\b|export\\s*\\{[^}]*\\b${method}\\b|export\\s+(const|let|var)\\s+${method}\\b`).test(source),
        );
        const declared = source.includes(declaration) && declarations === 1 && otherExports.length === 0;
        const served = routeKeys().filter((key) => key.endsWith(` ${routePath}`));
        // A file the table does not know still counts, so the comparison with the table fails on it.
        for (const key of served.length > 0 ? served : [`? ${routePath}`]) found.push({ key, declared });
      }
    }
  };
  walk(path.join(root, "app", "api", "0"));
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

type PrincipalName =
  | "anonymous"
  | "viewer"
  | "member of another team"
  | "member"
  | "admin"
  | "owner"
  | "token without the scope"
  | "token with the scope"
  | "token of another organisation";

interface Principal {
  name: PrincipalName;
  /** Whose account it is; null for anonymous. */
  person: PersonName | null;
  /** Role in the "default" organisation; null when not a member. */
  role: Role | null;
  /** The token's scopes; null for sessions. */
  tokenScopes(rule: RouteRule): readonly Scope[] | null;
  /** Project slugs of "default" the person's teams own (all for owners and admins). */
  visible: readonly string[];
}

const ALL_PROJECTS = ["alpha-app", "beta-app", "default", "periscope"];
const session = (name: PrincipalName, person: PersonName, role: Role, visible: readonly string[]): Principal => ({
  name, person, role, visible, tokenScopes: () => null,
});
/** Every scope that does not grant the route's, so the token lacks exactly what it needs. */
const scopesWithout = (scope: Scope | readonly Scope[] | null): Scope[] => (scope === null ? ["alerts:read"] : SCOPES.filter((candidate) => !allowsAny(new Set([candidate]), scope)));
const scopesWith = (scope: Scope | readonly Scope[] | null): Scope[] => [scope === null ? "alerts:read" : typeof scope === "string" ? scope : scope[0]!];

const PRINCIPALS: Principal[] = [
  { name: "anonymous", person: null, role: null, visible: [], tokenScopes: () => null },
  session("viewer", "viewer", "viewer", ["alpha-app"]),
  session("member of another team", "betaMember", "member", ["beta-app"]),
  session("member", "member", "member", ["alpha-app"]),
  session("admin", "admin", "admin", ALL_PROJECTS),
  session("owner", "owner", "owner", ALL_PROJECTS),
  { name: "token without the scope", person: "owner", role: "owner", visible: ALL_PROJECTS, tokenScopes: (rule) => scopesWithout(rule.scope) },
  { name: "token with the scope", person: "owner", role: "owner", visible: ALL_PROJECTS, tokenScopes: (rule) => scopesWith(rule.scope) },
  { name: "token of another organisation", person: "otherOwner", role: null, visible: [], tokenScopes: () => SCOPES },
];

interface RouteCase {
  success: 200 | 201 | 202 | 204;
  /** The path's ids are of alpha's project (an issue, event, trace or the project itself): hidden from other teams. */
  alphaBound: boolean;
  /** The path's values; `?` (when the case has no fixed `query`) is a query string made per call. */
  params(f: AuthzFixture, principal: Principal): Promise<Record<string, string>> | Record<string, string>;
  query?: string;
  body?(n: number): unknown;
  /** A multipart body instead of JSON (the upload routes). */
  form?(n: number): FormData;
  /** Asserts a successful answer. */
  check(answer: Answer, principal: Principal, f: AuthzFixture): void;
}

/** Answers of the owner for the routes whose answer must be the same for everyone allowed to see it. */
const reference = new Map<string, unknown>();
let server: TestServer;
let fixture: AuthzFixture;
let serial = 0;
const tokens = new Map<string, Credentials>();

const slugs = (items: unknown) => (items as { slug: string }[]).map((item) => item.slug).sort();
/** Comments added by the comment cases change numComments meanwhile, so it is left out. */
const withoutComments = (body: unknown) => (body !== null && typeof body === "object" && "numComments" in body ? { ...body, numComments: 0 } : body);
const sameAsOwner = (key: RouteKey) => (answer: Answer) => assert.deepStrictEqual(withoutComments(answer.body), withoutComments(reference.get(key)));
let attachmentOfAlpha: Promise<string> | undefined;
/** The id of an attachment stored beside alpha's event (sent once): the hash the attachment item makes. */
function alphaAttachment(f: AuthzFixture): Promise<string> {
  attachmentOfAlpha ??= (async () => {
    const content = "visible to alpha's team only\n";
    const body = [JSON.stringify({ event_id: f.alpha.eventId }), JSON.stringify({ type: "attachment", length: content.length, filename: "authz.txt", content_type: "text/plain" }), content].join("\n");
    const response = await fetch(`${server.baseUrl}/api/${f.alpha.id}/envelope/?sentry_key=${f.alpha.publicKey}&sentry_version=7`, { method: "POST", body });
    assert.equal(response.status, 200);
    const sha1 = createHash("sha1").update(content).digest("hex");
    return createHash("sha1").update(`${f.alpha.eventId}\u0000authz.txt\u0000${sha1}`).digest("hex").slice(0, 32);
  })();
  return attachmentOfAlpha;
}

const throwaway = async (principal: Principal): Promise<Record<string, string>> => {
  if (!principal.person) return { tokenId: "1" };
  const person = principal.person;
  const token = await server.withStorage((storage) => tokenOf(storage, fixture.users[person], ["event:read"], "throwaway"));
  return { tokenId: token.kind === "token" ? token.tokenId : "" };
};

/** A fresh key of alpha's project for each revocation (404 cases name a key that exists too). */
const throwawayKey = async (): Promise<Record<string, string>> => {
  const key = await server.withStorage(async (storage) => {
    const project = (await storage.projects.getBySlug((await storage.organizations.getBySlug("default"))!.id, "alpha-app"))!;
    return storage.keys.create({ projectId: project.id, label: "throwaway" });
  });
  return { org: "default", project: "alpha-app", keyId: key.publicKey };
};

/** A release of alpha's project, made once, for the routes that name one. */
let matrixRelease: Promise<void> | null = null;
const alphaRelease = async (): Promise<Record<string, string>> => {
  matrixRelease ??= request(server, fixture.ownerToken, "POST", "/api/0/organizations/default/releases/", { version: "matrix@1", projects: ["alpha-app"] }).then((answer) => {
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });
  await matrixRelease;
  return { org: "default", version: "matrix@1", project: "alpha-app" };
};
/** A release only for this call (the DELETE case). */
const disposableRelease = async (): Promise<Record<string, string>> => {
  const version = `matrix-delete@${++serial}`;
  const answer = await request(server, fixture.ownerToken, "POST", "/api/0/organizations/default/releases/", { version, projects: ["alpha-app"] });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { org: "default", version };
};
/** An issue of alpha's project made for the delete cases (made again after each delete: its grouping comes back). */
const disposableIssue = async (f: AuthzFixture): Promise<string> => {
  await ingest(server, "browser-uncaught-error", f.alpha.id, f.alpha.publicKey);
  return eventually("the disposable issue", () =>
    server.withStorage(async (storage) => {
      const { items } = await storage.issues.query({ projectIds: [f.alpha.id], sort: "date", limit: 20, now: Date.now() });
      return items.find((issue) => issue.title.includes("uncaught browser error"))?.id;
    }),
  );
};
/** Two issues of alpha's project for the unmerge case: made once, the second merged into the first before each call. */
let unmergePair: Promise<{ parent: string; child: string; childHash: string }> | null = null;
const mergedPair = async (f: AuthzFixture): Promise<Record<string, string>> => {
  unmergePair ??= (async () => {
    for (const name of ["node-error-cause", "node-error-cause", "node-fingerprint"]) await ingest(server, name, f.alpha.id, f.alpha.publicKey);
    return eventually("the unmerge pair", () =>
      server.withStorage(async (storage) => {
        const { items } = await storage.issues.query({ projectIds: [f.alpha.id], sort: "date", limit: 10, now: Date.now() });
        const parent = items.find((issue) => issue.count === 2);
        const child = items.find((issue) => issue.count === 1 && issue.id !== f.alpha.issueId);
        const [own] = child ? await storage.issues.hashes(child.id) : [];
        return parent && child && own ? { parent: parent.id, child: child.id, childHash: own.hash } : undefined;
      }),
    );
  })();
  const pair = await unmergePair;
  await server.withStorage((storage) => storage.issues.merge(pair.parent, [pair.child]));
  return { issueId: pair.parent, "?": `?id=${pair.childHash}` };
};
// Alerts (issue 34): alpha's default rule (every new project has one), and a rule only for a DELETE.
const alphaRule = async (): Promise<Record<string, string>> => {
  const ruleId = await server.withStorage(async (storage) => {
    const project = (await storage.projects.getBySlug((await storage.organizations.getBySlug("default"))!.id, "alpha-app"))!;
    return (await storage.alerts.rules.list(project.id))[0]!.id;
  });
  return { org: "default", project: "alpha-app", ruleId };
};
const ALERT_RULE_BODY = {
  name: "matrix rule", conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
  actions: [{ id: "periscope.rules.actions.WebhookAction", url: "http://127.0.0.1:9/hook", format: "json" }],
};
const throwawayRule = async (): Promise<Record<string, string>> => {
  const answer = await request(server, fixture.ownerToken, "POST", "/api/0/projects/default/alpha-app/rules/", ALERT_RULE_BODY);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { org: "default", project: "alpha-app", ruleId: (answer.body as { id: string }).id };
};
// Metric alerts (issue 34 item 2): a throwaway rule of alpha's project per call.
const METRIC_RULE_BODY = {
  name: "matrix metric", aggregate: "count()", timeWindow: 60, thresholdType: 0, projects: ["alpha-app"],
  triggers: [{ label: "critical", alertThreshold: 1000000, actions: [{ type: "webhook", targetIdentifier: "http://127.0.0.1:9/hook" }] }],
};
const throwawayMetricRule = async (): Promise<Record<string, string>> => {
  const answer = await request(server, fixture.ownerToken, "POST", "/api/0/organizations/default/alert-rules/", METRIC_RULE_BODY);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { org: "default", ruleId: (answer.body as { id: string }).id };
};
const ruleNames = (body: unknown) => (body as { name: string }[]).map((rule) => rule.name);
/** A personal saved search of the caller's (id 0 for anonymous callers, who never reach it). */
const ownSearch = async (principal: Principal): Promise<Record<string, string>> => {
  if (!principal.person) return { org: "default", searchId: "0" };
  const user = fixture.users[principal.person];
  const search = await server.withStorage(async (storage) => {
    const organization = (await storage.organizations.getBySlug("default"))!;
    return storage.savedSearches.create({ organizationId: organization.id, ownerId: user.id, visibility: "owner", name: "own", query: "", sort: "date" });
  });
  return { org: "default", searchId: search.id };
};
const pick = (body: unknown, keys: string[]) => Object.fromEntries(keys.map((key) => [key, (body as Record<string, unknown>)[key]]));
const versions = (body: unknown) => (body as { version: string }[]).map((release) => release.version);
const sha1Of = (text: string) => createHash("sha1").update(text).digest("hex");

/** A monitor of alpha's project for the routes that name one; a fresh one per call for DELETE. */
const alphaMonitor = async (fresh = false): Promise<Record<string, string>> => {
  const slug = fresh ? `matrix-delete-${++serial}` : "matrix-monitor";
  const existing = await request(server, fixture.ownerToken, "GET", `/api/0/organizations/default/monitors/${slug}/`);
  if (existing.status !== 200) {
    const answer = await request(server, fixture.ownerToken, "POST", "/api/0/organizations/default/monitors/", { project: "alpha-app", name: slug, slug, config: { schedule_type: "crontab", schedule: "0 * * * *" } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  }
  return { org: "default", monitorSlug: slug };
};
const CASES: Record<RouteKey, RouteCase> = {
  "GET /api/0/": {
    success: 200, alphaBound: false, params: () => ({}),
    check: (answer, principal) => {
      const body = answer.body as { user: { email: string }; auth: { scopes: string[] } | null };
      assert.equal(body.user.email.endsWith("@example.com"), true);
      assert.equal(body.auth === null, principal.tokenScopes(ROUTES["GET /api/0/"]) === null);
    },
  },
  "GET /api/0/organizations/{org}/releases/": {
    success: 200, alphaBound: false, params: async () => ({ org: (await alphaRelease()).org! }),
    check: (answer, principal) => assert.equal(versions(answer.body).includes("matrix@1"), principal.visible.includes("alpha-app")),
  },
  "POST /api/0/organizations/{org}/releases/": {
    success: 201, alphaBound: true, params: () => ({ org: "default" }), body: (n) => ({ version: `matrix-new@${n}`, projects: ["alpha-app"] }),
    check: (answer) => assert.match((answer.body as { version: string }).version, /^matrix-new@\d+$/),
  },
  "GET /api/0/organizations/{org}/releases/{version}/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.deepStrictEqual((answer.body as { projects: { slug: string }[] }).projects.map((project) => project.slug), ["alpha-app"]),
  },
  "PUT /api/0/organizations/{org}/releases/{version}/": {
    success: 200, alphaBound: true, params: alphaRelease, body: () => ({ url: "https://example.com/matrix" }),
    check: (answer) => assert.equal((answer.body as { url: string }).url, "https://example.com/matrix"),
  },
  "DELETE /api/0/organizations/{org}/releases/{version}/": {
    success: 204, alphaBound: true, params: disposableRelease,
    check: (answer) => assert.equal(answer.body, null),
  },
  "GET /api/0/organizations/{org}/releases/{version}/commits/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.deepStrictEqual(answer.body, []),
  },
  "GET /api/0/organizations/{org}/releases/{version}/previous-with-commits/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.deepStrictEqual(answer.body, {}),
  },
  "GET /api/0/organizations/{org}/releases/{version}/deploys/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/organizations/{org}/releases/{version}/deploys/": {
    success: 201, alphaBound: true, params: alphaRelease, body: (n) => ({ environment: "production", name: `matrix ${n}` }),
    check: (answer) => assert.equal((answer.body as { environment: string }).environment, "production"),
  },
  "GET /api/0/organizations/{org}/repos/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/organizations/{org}/repos/": {
    success: 201, alphaBound: false, params: () => ({ org: "default" }), body: (n) => ({ name: `acme/matrix-${n}` }),
    check: (answer) => assert.match((answer.body as { name: string }).name, /^acme\/matrix-\d+$/),
  },
  "GET /api/0/organizations/{org}/chunk-upload/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => assert.equal((answer.body as { hashAlgorithm: string }).hashAlgorithm, "sha1"),
  },
  "POST /api/0/organizations/{org}/chunk-upload/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    form: (n) => {
      const form = new FormData();
      form.append("file", new Blob([`chunk ${n}`]), sha1Of(`chunk ${n}`));
      return form;
    },
    check: (answer) => assert.equal(answer.body, null),
  },
  "POST /api/0/organizations/{org}/artifactbundle/assemble/": {
    success: 200, alphaBound: true, params: () => ({ org: "default" }),
    body: (n) => ({ checksum: sha1Of(`bundle ${n}`), chunks: [sha1Of(`bundle ${n}`)], projects: ["alpha-app"] }),
    check: (answer) => assert.equal((answer.body as { state: string }).state, "not_found"),
  },
  "GET /api/0/projects/{org}/{project}/releases/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.ok(versions(answer.body).includes("matrix@1")),
  },
  "GET /api/0/projects/{org}/{project}/releases/{version}/files/": {
    success: 200, alphaBound: true, params: alphaRelease,
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/projects/{org}/{project}/releases/{version}/files/": {
    success: 201, alphaBound: true, params: alphaRelease,
    form: (n) => {
      const form = new FormData();
      form.append("file", new Blob([`console.log(${n})`]), "app.js");
      form.append("name", `~/matrix-${n}.js`);
      return form;
    },
    check: (answer) => assert.match((answer.body as { name: string }).name, /^~\/matrix-\d+\.js$/),
  },
  "GET /api/0/organizations/": {
    success: 200, alphaBound: false, params: () => ({}),
    check: (answer, principal) => assert.deepStrictEqual(slugs(answer.body), principal.person === "otherOwner" ? ["other"] : ["default"]),
  },
  "GET /api/0/organizations/{org}/projects/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer, principal) => assert.deepStrictEqual(slugs(answer.body), [...principal.visible].sort()),
  },
  "GET /api/0/organizations/{org}/issues/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), query: "?query=",
    check: (answer, principal, f) => {
      const issues = answer.body as { id: string; project: { slug: string } }[];
      const expected = [f.alpha, f.beta].filter((project) => principal.visible.includes(project.slug));
      assert.deepStrictEqual(issues.map((issue) => [issue.id, issue.project.slug]).sort(), expected.map((project) => [project.issueId, project.slug]).sort());
    },
  },
  "GET /api/0/organizations/{org}/issues/{issueId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/"),
  },
  "PUT /api/0/organizations/{org}/issues/{issueId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }), body: () => ({ status: "unresolved" }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/"),
  },
  "GET /api/0/organizations/{org}/events/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), query: "?dataset=transactions&field=trace&field=project",
    check: (answer, principal, f) => {
      const rows = (answer.body as { data: { trace: string; project: string }[] }).data;
      assert.deepStrictEqual(rows, principal.visible.includes("alpha-app") ? [{ trace: f.alphaTraceId, project: "alpha-app" }] : []);
    },
  },
  "GET /api/0/organizations/{org}/sessions/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), query: "?field=sum(session)&statsPeriod=24h",
    check: (answer) => assert.ok(Array.isArray((answer.body as { groups: unknown }).groups), JSON.stringify(answer.body)),
  },
  "GET /api/0/organizations/{org}/stats_v2/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), query: "?field=sum(quantity)&statsPeriod=24h&groupBy=category",
    check: (answer) => assert.ok(Array.isArray((answer.body as { groups: unknown }).groups), JSON.stringify(answer.body)),
  },
  "GET /api/0/organizations/{org}/trace/{traceId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", traceId: f.alphaTraceId }),
    check: sameAsOwner("GET /api/0/organizations/{org}/trace/{traceId}/"),
  },
  "GET /api/0/organizations/{org}/members/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) =>
      assert.deepStrictEqual(
        (answer.body as { email: string; role: string }[]).map((member) => `${member.email} ${member.role}`).sort(),
        ["admin@example.com admin", "beta@example.com member", "member@example.com member", `${OWNER_EMAIL} owner`, "viewer@example.com viewer"],
      ),
  },
  "GET /api/0/organizations/{org}/users/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) =>
      assert.deepStrictEqual(
        (answer.body as { email: string; username: string }[]).map((user) => [user.email, user.username === user.email]).sort(),
        [["admin@example.com", true], ["beta@example.com", true], ["member@example.com", true], [OWNER_EMAIL, true], ["viewer@example.com", true]],
      ),
  },
  "GET /api/0/organizations/{org}/teams/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer, principal) => {
      const teams = answer.body as { slug: string; isMember: boolean; memberCount: number }[];
      assert.deepStrictEqual(
        teams.map((team) => [team.slug, team.memberCount, team.isMember]).sort(),
        [
          ["alpha", 2, principal.person === "member" || principal.person === "viewer"],
          ["beta", 1, principal.person === "betaMember"],
          ["default", 1, principal.person === "owner"],
        ],
      );
    },
  },
  "GET /api/0/organizations/{org}/audit-logs/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => {
      const { rows, options } = answer.body as { rows: { event: string; data: { slug?: string }; actor: { email: string } | null }[]; options: string[] };
      const created = rows.find((row) => row.event === "project.create" && row.data.slug === "alpha-app");
      assert.deepStrictEqual(created?.actor?.email, OWNER_EMAIL);
      assert.ok(options.includes("project.create"));
    },
  },
  "GET /api/0/issues/{issueId}/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/"),
  },
  "PUT /api/0/issues/{issueId}/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }), body: () => ({ status: "unresolved" }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/"),
  },
  "GET /api/0/issues/{issueId}/comments/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: (answer) => assert.ok((answer.body as { type: string }[]).every((entry) => entry.type === "note")),
  },
  "POST /api/0/issues/{issueId}/comments/": {
    success: 201, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }), body: (n) => ({ text: `matrix note ${n}` }),
    check: (answer) => assert.equal((answer.body as { type: string }).type, "note"),
  },
  "GET /api/0/issues/{issueId}/activities/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: (answer) => assert.ok(Array.isArray((answer.body as { activity: unknown[] }).activity)),
  },
  "GET /api/0/issues/{issueId}/hashes/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: (answer) => assert.deepStrictEqual((answer.body as { merged: boolean }[]).map((hash) => hash.merged), [false]),
  },
  "DELETE /api/0/issues/{issueId}/hashes/": {
    success: 204, alphaBound: true, params: (f) => mergedPair(f),
    check: (answer) => assert.equal(answer.status, 204),
  },
  "DELETE /api/0/issues/{issueId}/": {
    success: 202, alphaBound: true, params: async (f) => ({ issueId: await disposableIssue(f) }),
    check: (answer) => assert.equal(answer.status, 202),
  },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/": {
    success: 202, alphaBound: true, params: async (f) => ({ org: "default", issueId: await disposableIssue(f) }),
    check: (answer) => assert.equal(answer.status, 202),
  },
  "GET /api/0/organizations/{org}/issues/{issueId}/hashes/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }),
    check: (answer) => assert.deepStrictEqual((answer.body as { merged: boolean }[]).map((hash) => hash.merged), [false]),
  },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/hashes/": {
    success: 204, alphaBound: true, params: async (f) => ({ org: "default", ...(await mergedPair(f)) }),
    check: (answer) => assert.equal(answer.status, 204),
  },
  "PUT /api/0/projects/{org}/{project}/issues/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", project: "alpha-app", "?": `?id=${f.alpha.issueId}` }), body: () => ({ status: "unresolved" }),
    check: (answer) => assert.equal((answer.body as { status: string }).status, "unresolved"),
  },
  "DELETE /api/0/projects/{org}/{project}/issues/": {
    success: 204, alphaBound: true, params: () => ({ org: "default", project: "alpha-app", "?": "?id=999999999" }),
    check: (answer) => assert.equal(answer.status, 204),
  },
  "PUT /api/0/organizations/{org}/issues/": {
    success: 204, alphaBound: false, params: () => ({ org: "default", "?": "?id=999999999" }), body: () => ({ status: "unresolved" }),
    check: (answer) => assert.equal(answer.status, 204),
  },
  "DELETE /api/0/organizations/{org}/issues/": {
    success: 204, alphaBound: false, params: () => ({ org: "default", "?": "?id=999999999" }),
    check: (answer) => assert.equal(answer.status, 204),
  },
  "GET /api/0/issues/{issueId}/events/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: (answer, _principal, f) => assert.deepStrictEqual((answer.body as { eventID: string }[]).map((event) => event.eventID), [f.alpha.eventId]),
  },
  "GET /api/0/issues/{issueId}/events/{eventId}/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId, eventId: f.alpha.eventId }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/events/{eventId}/"),
  },
  "GET /api/0/projects/{org}/{project}/issues/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }), query: "?query=",
    check: (answer, _principal, f) => assert.deepStrictEqual((answer.body as { id: string }[]).map((issue) => issue.id), [f.alpha.issueId]),
  },
  "GET /api/0/projects/{org}/{project}/events/{eventId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", project: "alpha-app", eventId: f.alpha.eventId }),
    check: sameAsOwner("GET /api/0/issues/{issueId}/events/{eventId}/"),
  },
  // Attachments (issue 38): one is sent beside alpha's event the first time a case needs it.
  "GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/": {
    success: 200, alphaBound: true,
    params: async (f) => ({ org: "default", project: "alpha-app", eventId: f.alpha.eventId, attachmentId: await alphaAttachment(f) }),
    check: (answer) => assert.deepEqual((answer.body as { name: string }[]).map((a) => a.name), ["authz.txt"]),
  },
  "GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/{attachmentId}/": {
    success: 200, alphaBound: true,
    params: async (f) => ({ org: "default", project: "alpha-app", eventId: f.alpha.eventId, attachmentId: await alphaAttachment(f) }),
    check: (answer) => assert.equal((answer.body as { name: string }).name, "authz.txt"),
  },
  "GET /api/0/organizations/{org}/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => {
      const body = answer.body as { slug: string; dataScrubber: boolean; sensitiveFields: string[] };
      assert.equal(body.slug, "default");
      assert.equal(body.dataScrubber, true);
      assert.ok(Array.isArray(body.sensitiveFields));
    },
  },
  "PUT /api/0/organizations/{org}/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), body: (n) => ({ sensitiveFields: [`matrix_field_${n}`] }),
    check: (answer) => assert.match((answer.body as { sensitiveFields: string[] }).sensitiveFields[0] ?? "", /^matrix_field_\d+$/),
  },
  "GET /api/0/projects/{org}/{project}/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer) => {
      const body = answer.body as { slug: string; dataScrubberDefaults: boolean; relayPiiConfig: string | null };
      assert.equal(body.slug, "alpha-app");
      assert.equal(body.dataScrubberDefaults, true);
    },
  },
  "PUT /api/0/projects/{org}/{project}/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }), body: (n) => ({ safeFields: [`matrix_safe_${n}`] }),
    check: (answer) => assert.match((answer.body as { safeFields: string[] }).safeFields[0] ?? "", /^matrix_safe_\d+$/),
  },
  "GET /api/0/projects/{org}/{project}/keys/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer, _principal, f) => {
      const keys = answer.body as { public: string; projectId: number }[];
      assert.deepStrictEqual(keys[0], (reference.get("GET /api/0/projects/{org}/{project}/keys/") as unknown[])[0]);
      assert.deepStrictEqual([...new Set(keys.map((key) => key.projectId))], [Number(f.alpha.id)]);
      assert.equal(keys[0]?.public, f.alpha.publicKey);
    },
  },
  "POST /api/0/projects/{org}/{project}/keys/": {
    success: 201, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }), body: (n) => ({ name: `matrix key ${n}` }),
    check: (answer, _principal, f) => {
      const key = answer.body as { label: string; projectId: number; isActive: boolean };
      assert.deepStrictEqual([key.label.startsWith("matrix key "), key.projectId, key.isActive], [true, Number(f.alpha.id), true]);
    },
  },
  "GET /api/0/projects/{org}/{project}/keys/{keyId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", project: "alpha-app", keyId: f.alpha.publicKey }),
    check: (answer, _principal, f) => assert.equal((answer.body as { public: string }).public, f.alpha.publicKey),
  },
  "PUT /api/0/projects/{org}/{project}/keys/{keyId}/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", project: "alpha-app", keyId: f.alpha.publicKey }), body: (n) => ({ name: `matrix key ${n}` }),
    check: (answer) => {
      const key = answer.body as { name: string; isActive: boolean };
      assert.deepStrictEqual([key.name.startsWith("matrix key "), key.isActive], [true, true]);
    },
  },
  "DELETE /api/0/projects/{org}/{project}/keys/{keyId}/": {
    success: 204, alphaBound: true, params: () => throwawayKey(),
    check: (answer) => assert.equal(answer.body, null),
  },
  // Alerts (issue 34).
  "GET /api/0/projects/{org}/{project}/rules/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer) => assert.equal(ruleNames(answer.body)[0], "Send a notification for new issues and regressions"),
  },
  "POST /api/0/projects/{org}/{project}/rules/": {
    success: 201, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }), body: (n) => ({ ...ALERT_RULE_BODY, name: `matrix rule ${n}` }),
    check: (answer) => assert.match((answer.body as { name: string }).name, /^matrix rule \d+$/),
  },
  "GET /api/0/projects/{org}/{project}/rules/{ruleId}/": {
    success: 200, alphaBound: true, params: () => alphaRule(),
    check: (answer) => assert.equal((answer.body as { name: string }).name, "Send a notification for new issues and regressions"),
  },
  "PUT /api/0/projects/{org}/{project}/rules/{ruleId}/": {
    success: 200, alphaBound: true, params: () => throwawayRule(), body: (n) => ({ ...ALERT_RULE_BODY, name: `matrix rule renamed ${n}` }),
    check: (answer) => assert.match((answer.body as { name: string }).name, /^matrix rule renamed \d+$/),
  },
  "DELETE /api/0/projects/{org}/{project}/rules/{ruleId}/": {
    success: 202, alphaBound: true, params: () => throwawayRule(),
    check: (answer) => assert.equal(answer.body, null),
  },
  "POST /api/0/projects/{org}/{project}/rules/{ruleId}/snooze/": {
    success: 201, alphaBound: true, params: () => throwawayRule(),
    check: (answer) => assert.equal((answer.body as { snooze: boolean }).snooze, true),
  },
  "DELETE /api/0/projects/{org}/{project}/rules/{ruleId}/snooze/": {
    success: 200, alphaBound: true, params: () => throwawayRule(),
    check: (answer) => assert.equal((answer.body as { snooze: boolean }).snooze, false),
  },
  "POST /api/0/projects/{org}/{project}/rules/{ruleId}/test/": {
    success: 202, alphaBound: true, params: () => throwawayRule(),
    check: (answer) => assert.deepStrictEqual(answer.body, { queued: [{ channel: "webhook", target: "http://127.0.0.1:9/hook" }] }),
  },
  "GET /api/0/projects/{org}/{project}/rules/{ruleId}/deliveries/": {
    success: 200, alphaBound: true, params: () => throwawayRule(),
    check: (answer) => assert.deepStrictEqual(answer.body, []),
  },
  // Metric alerts (issue 34 item 2).
  "GET /api/0/organizations/{org}/alert-rules/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/organizations/{org}/alert-rules/": {
    success: 201, alphaBound: true, params: () => ({ org: "default" }), body: (n) => ({ ...METRIC_RULE_BODY, name: `matrix metric ${n}` }),
    check: (answer) => assert.match((answer.body as { name: string }).name, /^matrix metric \d+$/),
  },
  "GET /api/0/organizations/{org}/alert-rules/{ruleId}/": {
    success: 200, alphaBound: true, params: () => throwawayMetricRule(),
    check: (answer) => assert.equal((answer.body as { state: string }).state, "ok"),
  },
  "PUT /api/0/organizations/{org}/alert-rules/{ruleId}/": {
    success: 200, alphaBound: true, params: () => throwawayMetricRule(), body: (n) => ({ ...METRIC_RULE_BODY, name: `matrix metric renamed ${n}` }),
    check: (answer) => assert.match((answer.body as { name: string }).name, /^matrix metric renamed \d+$/),
  },
  "DELETE /api/0/organizations/{org}/alert-rules/{ruleId}/": {
    success: 202, alphaBound: true, params: () => throwawayMetricRule(),
    check: (answer) => assert.equal(answer.body, null),
  },
  "GET /api/0/organizations/{org}/alert-rules/{ruleId}/deliveries/": {
    success: 200, alphaBound: true, params: () => throwawayMetricRule(),
    check: (answer) => assert.deepStrictEqual(answer.body, []),
  },
  "GET /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }),
    check: (answer) => assert.ok("snoozedUntil" in (answer.body as object)),
  },
  "POST /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }), body: () => ({ minutes: 1 }),
    check: (answer) => assert.match(String((answer.body as { snoozedUntil: string }).snoozedUntil), /^\d{4}-\d\d-\d\dT/),
  },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": {
    success: 200, alphaBound: true, params: (f) => ({ org: "default", issueId: f.alpha.issueId }),
    check: (answer) => assert.deepStrictEqual(answer.body, { snoozedUntil: null }),
  },
  "GET /api/0/projects/{org}/{project}/filters/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer) => assert.deepStrictEqual((answer.body as { id: string }[]).map((filter) => filter.id), ["browser-extensions", "localhost", "legacy-browsers", "web-crawlers"]),
  },
  "PUT /api/0/projects/{org}/{project}/filters/{filterId}/": {
    success: 204, alphaBound: true, params: () => ({ org: "default", project: "alpha-app", filterId: "web-crawlers" }), body: () => ({ active: false }),
    check: (answer) => assert.equal(answer.body, null),
  },
  // Quotas and spike protection (issue 33 item 4).
  "GET /api/0/projects/{org}/{project}/quotas/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer) => assert.ok(Array.isArray((answer.body as { quotas: unknown[] }).quotas)),
  },
  "PUT /api/0/projects/{org}/{project}/quotas/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }), body: (n) => ({ quotas: [{ category: "error", window: "day", limit: 1_000_000 + n }] }),
    check: (answer) => assert.ok((answer.body as { quotas: { limit: number }[] }).quotas[0]!.limit > 1_000_000),
  },
  "GET /api/0/organizations/{org}/quotas/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => assert.ok(Array.isArray((answer.body as { quotas: unknown[] }).quotas)),
  },
  "PUT /api/0/organizations/{org}/quotas/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }), body: (n) => ({ quotas: [{ category: "span", window: "month", limit: 1_000_000_000 + n }] }),
    check: (answer) => assert.ok((answer.body as { quotas: { limit: number }[] }).quotas[0]!.limit > 1_000_000_000),
  },
  "POST /api/0/organizations/{org}/spike-protections/": {
    success: 201, alphaBound: false, params: () => ({ org: "default" }), body: () => ({ projects: ["$all"] }),
    check: (answer) => assert.equal(answer.body, null),
  },
  "DELETE /api/0/organizations/{org}/spike-protections/": {
    success: 204, alphaBound: false, params: () => ({ org: "default" }), body: () => ({ projects: ["$all"] }),
    check: (answer) => assert.equal(answer.body, null),
  },
  "POST /api/0/teams/{org}/{team}/projects/": {
    success: 201, alphaBound: false, params: () => ({ org: "default", team: "alpha" }), body: (n) => ({ name: `Matrix ${n}`, slug: `matrix-${n}` }),
    check: (answer) => assert.match((answer.body as { slug: string }).slug, /^matrix-\d+$/),
  },
  // Cron monitors and user feedback.
  "GET /api/0/organizations/{org}/monitors/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer, principal) => {
      const monitors = answer.body as { project: { slug: string } }[];
      assert.ok(monitors.every((monitor) => principal.visible.includes(monitor.project.slug)));
    },
  },
  "POST /api/0/organizations/{org}/monitors/": {
    success: 201, alphaBound: true, params: () => ({ org: "default" }),
    body: (n) => ({ project: "alpha-app", name: `Matrix monitor ${n}`, config: { schedule_type: "interval", schedule: [2, "hour"], checkin_margin: 5 } }),
    check: (answer) => {
      const monitor = answer.body as { slug: string; config: { schedule: unknown; checkin_margin: number }; project: { slug: string } };
      assert.ok(monitor.slug.startsWith("matrix-monitor-"));
      assert.deepStrictEqual([monitor.config.schedule, monitor.config.checkin_margin, monitor.project.slug], [[2, "hour"], 5, "alpha-app"]);
    },
  },
  "GET /api/0/organizations/{org}/monitors/{monitorSlug}/": {
    success: 200, alphaBound: true, params: () => alphaMonitor(),
    check: (answer) => assert.equal((answer.body as { slug: string }).slug, "matrix-monitor"),
  },
  "PUT /api/0/organizations/{org}/monitors/{monitorSlug}/": {
    success: 200, alphaBound: true, params: () => alphaMonitor(), body: (n) => ({ name: `Matrix ${n}` }),
    check: (answer) => assert.ok((answer.body as { name: string }).name.startsWith("Matrix ")),
  },
  "DELETE /api/0/organizations/{org}/monitors/{monitorSlug}/": {
    success: 202, alphaBound: true, params: () => alphaMonitor(true),
    check: (answer) => assert.equal(answer.body, null),
  },
  "GET /api/0/organizations/{org}/monitors/{monitorSlug}/checkins/": {
    success: 200, alphaBound: true, params: () => alphaMonitor(),
    check: (answer) => assert.deepStrictEqual(answer.body, []),
  },
  "GET /api/0/projects/{org}/{project}/user-feedback/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/projects/{org}/{project}/user-feedback/": {
    success: 200, alphaBound: true, params: () => ({ org: "default", project: "alpha-app" }),
    body: (n) => ({ event_id: n.toString(16).padStart(32, "0"), name: "Matrix", email: "matrix@example.com", comments: `report ${n}` }),
    check: (answer) => {
      const report = answer.body as { comments: string; email: string };
      assert.ok(report.comments.startsWith("report "));
      assert.equal(report.email, "matrix@example.com");
    },
  },
  "GET /api/0/api-tokens/": {
    success: 200, alphaBound: false, params: () => ({}),
    check: (answer, principal) => {
      const listed = answer.body as Record<string, unknown>[];
      assert.ok(listed.every((token) => !("token" in token) && typeof token.tokenLastCharacters === "string"));
      if (principal.tokenScopes(ROUTES["GET /api/0/api-tokens/"]) !== null) {
        // Called with a token: that token alone, never its owner's others.
        assert.equal(listed.length, 1);
        assert.notEqual(listed[0]?.name, "tests");
        return;
      }
      // Only the caller's own tokens: the server's "tests" token is the bootstrapped owner's.
      assert.equal(listed.some((token) => token.name === "tests"), principal.person === "owner");
    },
  },
  "POST /api/0/api-tokens/": {
    success: 201, alphaBound: false, params: () => ({}), body: (n) => ({ name: `matrix ${n}`, scopes: ["event:read"] }),
    check: (answer) => {
      const created = answer.body as { token: string; scopes: string[]; name: string };
      assert.match(created.token, /^sntryu_[0-9a-f]{64}$/);
      assert.deepStrictEqual(created.scopes, ["event:read"]);
    },
  },
  // Issue search (issue 35): saved searches, each PUT/DELETE on one of the caller's own.
  "GET /api/0/organizations/{org}/searches/": {
    success: 200, alphaBound: false, params: () => ({ org: "default" }),
    check: (answer) => assert.ok(Array.isArray(answer.body)),
  },
  "POST /api/0/organizations/{org}/searches/": {
    success: 201, alphaBound: false, params: () => ({ org: "default" }),
    body: (n) => ({ type: 0, name: `mine ${n}`, query: "is:unresolved level:error", sort: "freq" }),
    check: (answer) => assert.deepStrictEqual(pick(answer.body, ["type", "query", "sort", "visibility"]), { type: 0, query: "is:unresolved level:error", sort: "freq", visibility: "owner" }),
  },
  "PUT /api/0/organizations/{org}/searches/{searchId}/": {
    success: 200, alphaBound: false, params: (_f, principal) => ownSearch(principal),
    body: () => ({ query: "is:resolved" }),
    check: (answer) => assert.equal((answer.body as { query: string }).query, "is:resolved"),
  },
  "DELETE /api/0/organizations/{org}/searches/{searchId}/": {
    success: 204, alphaBound: false, params: (_f, principal) => ownSearch(principal),
    check: (answer) => assert.equal(answer.body, null),
  },
  // Issue tags (issue 35): alpha's issue carries the derived `level` tag.
  "GET /api/0/issues/{issueId}/tags/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId }),
    check: (answer) => assert.ok((answer.body as { key: string }[]).some((tag) => tag.key === "level")),
  },
  "GET /api/0/issues/{issueId}/tags/{key}/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId, key: "level" }),
    check: (answer) => assert.equal((answer.body as { key: string }).key, "level"),
  },
  "GET /api/0/issues/{issueId}/tags/{key}/values/": {
    success: 200, alphaBound: true, params: (f) => ({ issueId: f.alpha.issueId, key: "level" }),
    check: (answer) => assert.equal((answer.body as unknown[]).length, 1),
  },
  "DELETE /api/0/api-tokens/{tokenId}/": {
    success: 204, alphaBound: false, params: (_f, principal) => throwaway(principal),
    check: (answer) => assert.equal(answer.body, null),
  },
};

/** What the rules say this caller gets from this route. */
function expectedStatus(key: RouteKey, principal: Principal): number {
  const rule: RouteRule = ROUTES[key];
  const routeCase = CASES[key];
  if (principal.person === null) return 401;
  const tokenScopes = principal.tokenScopes(rule);
  if (rule.level === "user") {
    if (tokenScopes !== null && rule.sessionOnly) return 403;
    if (tokenScopes !== null && rule.scope !== null && !allowsAny(new Set(tokenScopes), rule.scope)) return 403;
    // A token may revoke only itself; the case revokes a sibling token of the same person.
    if (tokenScopes !== null && key === "DELETE /api/0/api-tokens/{tokenId}/") return 404;
    return routeCase.success;
  }
  if (principal.role === null) return 404;
  if (!allowsAny(effectiveScopes(principal.role, tokenScopes), rule.scope)) return 403;
  if (routeCase.alphaBound && !principal.visible.includes("alpha-app")) return 404;
  return routeCase.success;
}

async function credentialsOf(principal: Principal, rule: RouteRule): Promise<Credentials> {
  if (principal.person === null) return ANONYMOUS;
  const scopes = principal.tokenScopes(rule);
  if (scopes === null) return fixture.sessions[principal.person];
  if (principal.name === "token of another organisation") return fixture.otherOwnerToken;
  const cacheKey = scopes.join(" ");
  let token = tokens.get(cacheKey);
  if (!token) {
    token = await server.withStorage((storage) => tokenOf(storage, fixture.users.owner, scopes, `matrix ${cacheKey}`.slice(0, 100)));
    tokens.set(cacheKey, token);
  }
  return token;
}

async function sendForm(credentials: Credentials, method: string, path: string, form: FormData): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers: headersFor(credentials), body: form, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) };
}

function pathOf(key: RouteKey, params: Record<string, string>, query = ""): string {
  const template = key.slice(key.indexOf(" ") + 1);
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    assert.ok(value !== undefined, `${key}: no value for {${name}}`);
    return encodeURIComponent(value);
  }) + query;
}

before(async () => {
  server = await startServer();
  fixture = await createAuthzFixture(server);
  // Setting "unresolved" turns a new issue "ongoing": do it once first, so every later answer is the same.
  const put = await request(server, fixture.ownerToken, "PUT", `/api/0/issues/${fixture.alpha.issueId}/`, { status: "unresolved" });
  assert.equal(put.status, 200);
  for (const key of ["GET /api/0/issues/{issueId}/", "GET /api/0/issues/{issueId}/events/{eventId}/", "GET /api/0/organizations/{org}/trace/{traceId}/", "GET /api/0/projects/{org}/{project}/keys/"] as const) {
    const answer = await request(server, fixture.ownerToken, "GET", pathOf(key, await CASES[key].params(fixture, PRINCIPALS[5]!), CASES[key].query));
    assert.equal(answer.status, 200, `${key}: ${JSON.stringify(answer.body)}`);
    reference.set(key, answer.body);
  }
});

after(async () => {
  await server?.stop();
});

describe("the route table", () => {
  it("lists exactly the routes of the route files, each declared through apiRoutes under its own path", () => {
    const onDisk = routesOnDisk();
    assert.deepStrictEqual(onDisk.map((route) => route.key), routeKeys().sort((a, b) => a.localeCompare(b)));
    assert.deepStrictEqual(onDisk.filter((route) => !route.declared).map((route) => route.key), []);
  });

  it("computes the expected statuses the rules state (a guard on the generator itself)", () => {
    const status = (key: RouteKey, name: PrincipalName) => expectedStatus(key, PRINCIPALS.find((principal) => principal.name === name)!);
    assert.deepStrictEqual(
      [
        status("PUT /api/0/issues/{issueId}/", "viewer"),
        status("PUT /api/0/issues/{issueId}/", "member"),
        status("PUT /api/0/issues/{issueId}/", "member of another team"),
        status("GET /api/0/issues/{issueId}/", "token of another organisation"),
        status("GET /api/0/organizations/{org}/audit-logs/", "member"),
        status("GET /api/0/organizations/{org}/audit-logs/", "admin"),
        status("POST /api/0/teams/{org}/{team}/projects/", "member"),
        status("GET /api/0/organizations/{org}/projects/", "member of another team"),
        status("POST /api/0/api-tokens/", "token with the scope"),
        status("GET /api/0/organizations/", "token without the scope"),
        status("GET /api/0/organizations/", "anonymous"),
      ],
      [403, 200, 404, 404, 403, 200, 403, 200, 403, 403, 401],
    );
  });

  it("has a test case for every route (the matrix is generated from it)", () => {
    assert.deepStrictEqual(Object.keys(CASES).sort(), routeKeys().sort());
  });
});

describe("authorisation matrix", () => {
  for (const key of routeKeys()) {
    for (const principal of PRINCIPALS) {
      const expected = expectedStatus(key, principal);
      it(`${key} as ${principal.name} → ${expected}`, async () => {
        const routeCase = CASES[key];
        const rule: RouteRule = ROUTES[key];
        const method = key.slice(0, key.indexOf(" "));
        const params = await routeCase.params(fixture, principal);
        const credentials = await credentialsOf(principal, rule);
        const path = pathOf(key, params, routeCase.query ?? params["?"]);
        const answer = routeCase.form ? await sendForm(credentials, method, path, routeCase.form(++serial)) : await request(server, credentials, method, path, routeCase.body?.(++serial));
        assert.equal(answer.status, expected, JSON.stringify(answer.body));
        if (expected >= 400) {
          // Refusals carry Sentry's error shape and nothing else: no data of the resource.
          assert.deepStrictEqual(Object.keys(answer.body as object), ["detail"]);
          const { detail } = answer.body as { detail: string };
          if (expected === 401) assert.equal(detail, NOT_AUTHENTICATED);
          if (expected === 403) assert.match(detail, /permission to perform this action|needs a signed-in session/);
          if (expected === 404) assert.match(detail, /not found/);
        } else {
          routeCase.check(answer, principal, fixture);
        }
      });
    }
  }
});
