/**
 * Authentication details the matrix does not show: cross-organisation isolation for every route
 * that takes an id, token revocation and session expiry taking effect at once, CSRF refusal for
 * cookie requests, and effective scopes (a token acts with what both it and its owner's role grant).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CSRF_FAILED, INVALID_SESSION, INVALID_TOKEN, NOT_AUTHENTICATED } from "../../src/api/auth";
import { SESSION_COOKIE } from "../../src/auth/cookies";
import { ANONYMOUS, join, newUser, request, sessionOf, tokenOf, type Credentials } from "../helpers/accounts";
import { createAuthzFixture, type AuthzFixture } from "../helpers/authz-fixture";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let f: AuthzFixture;

before(async () => {
  server = await startServer();
  f = await createAuthzFixture(server);
});

after(async () => {
  await server?.stop();
});

async function expectRefusal(as: Credentials, method: string, path: string, status: number, detail: string, body?: unknown, csrf?: string) {
  const answer = await request(server, as, method, path, body, csrf);
  assert.deepStrictEqual({ method, path, status: answer.status, body: answer.body }, { method, path, status, body: { detail } });
}

describe("cross-organisation isolation", () => {
  it("answers 404 and no data for another organisation's issue, event, project, key and trace, as owner by session and by token", async () => {
    const { other } = f;
    const cases: [string, string, string, unknown?][] = [
      ["GET", `/api/0/issues/${other.issueId}/`, "issue not found"],
      ["PUT", `/api/0/issues/${other.issueId}/`, "issue not found", { status: "resolved" }],
      ["GET", `/api/0/issues/${other.issueId}/events/`, "issue not found"],
      ["GET", `/api/0/issues/${other.issueId}/events/latest/`, "issue not found"],
      ["GET", `/api/0/issues/${other.issueId}/events/${other.eventId}/`, "issue not found"],
      // Their event through one of our issues, and through one of our projects.
      ["GET", `/api/0/issues/${f.alpha.issueId}/events/${other.eventId}/`, "event not found"],
      ["GET", `/api/0/projects/default/alpha-app/events/${other.eventId}/`, "event not found"],
      ["GET", `/api/0/organizations/default/issues/${other.issueId}/`, "issue not found"],
      ["PUT", `/api/0/organizations/default/issues/${other.issueId}/`, "issue not found", { status: "resolved" }],
      // Their project by numeric id under our organisation, and by slug.
      ["GET", `/api/0/projects/default/${other.id}/issues/`, "project not found"],
      ["GET", `/api/0/projects/default/${other.id}/events/${other.eventId}/`, "project not found"],
      ["GET", `/api/0/projects/default/${other.id}/keys/`, "project not found"],
      ["POST", `/api/0/projects/default/${other.id}/keys/`, "project not found", { name: "stolen" }],
      ["GET", `/api/0/projects/default/other-app/keys/`, "project not found"],
      ["GET", `/api/0/organizations/default/trace/${f.otherTraceId}/`, "trace not found"],
      // Their organisation itself: as if it did not exist.
      ["GET", `/api/0/organizations/other/projects/`, "organization not found"],
      ["GET", `/api/0/projects/other/other-app/keys/`, "organization not found"],
      ["GET", `/api/0/projects/other/other-app/events/${other.eventId}/`, "organization not found"],
      ["GET", `/api/0/organizations/other/issues/${other.issueId}/`, "organization not found"],
      ["POST", `/api/0/teams/other/other-team/projects/`, "organization not found", { name: "intruder" }],
      // Their team under our organisation.
      ["POST", `/api/0/teams/default/other-team/projects/`, "team not found", { name: "intruder" }],
    ];
    for (const as of [f.sessions.owner, f.ownerToken]) {
      for (const [method, path, detail, body] of cases) await expectRefusal(as, method, path, 404, detail, body);
    }
    // A project id of theirs in ?project= is refused like an unknown id, never searched.
    await expectRefusal(f.ownerToken, "GET", `/api/0/organizations/default/issues/?project=${other.id}`, 400, `unknown project id: ${other.id}`);
    await expectRefusal(f.ownerToken, "GET", `/api/0/organizations/default/events/?project=${other.id}&dataset=spans&field=id`, 400, `unknown project id: ${other.id}`);
    // Nothing changed on their side.
    const theirs = await request(server, f.otherOwnerToken, "GET", `/api/0/issues/${other.issueId}/`);
    assert.deepStrictEqual([theirs.status, (theirs.body as { status: string }).status], [200, "unresolved"]);
    const keys = await request(server, f.otherOwnerToken, "GET", `/api/0/projects/other/other-app/keys/`);
    assert.deepStrictEqual((keys.body as { label: string }[]).map((key) => key.label), ["Default"]);
  });

  it("hides projects of other teams inside the organisation the same way", async () => {
    const member = f.sessions.member;
    await expectRefusal(member, "GET", `/api/0/issues/${f.beta.issueId}/`, 404, "issue not found");
    await expectRefusal(member, "GET", `/api/0/projects/default/beta-app/events/${f.beta.eventId}/`, 404, "project not found");
    await expectRefusal(member, "GET", `/api/0/projects/default/${f.beta.id}/keys/`, 404, "project not found");
    await expectRefusal(member, "GET", `/api/0/organizations/default/issues/?project=${f.beta.id}`, 400, `unknown project id: ${f.beta.id}`);
    // The self-monitoring project belongs to no team: owners and admins only.
    await expectRefusal(member, "GET", `/api/0/projects/default/periscope/keys/`, 404, "project not found");
    assert.equal((await request(server, f.sessions.admin, "GET", `/api/0/projects/default/periscope/keys/`)).status, 200);
  });

  it("lists only the caller's organisations", async () => {
    const mine = await request(server, f.otherOwnerToken, "GET", "/api/0/organizations/");
    assert.deepStrictEqual((mine.body as { slug: string }[]).map((organization) => organization.slug), ["other"]);
    const both = await server.withStorage(async (storage) => {
      const user = await newUser(storage, "both@example.com");
      await join(storage, "default", user, "viewer", []);
      await join(storage, "other", user, "member", []);
      return sessionOf(storage, user);
    });
    const listed = await request(server, both, "GET", "/api/0/organizations/");
    assert.deepStrictEqual((listed.body as { slug: string }[]).map((organization) => organization.slug).sort(), ["default", "other"]);
  });
});

describe("authentication", () => {
  it("names what is wrong: no credentials, a bad token, another scheme, a bad session cookie", async () => {
    await expectRefusal(ANONYMOUS, "GET", "/api/0/organizations/", 401, NOT_AUTHENTICATED);
    const bad = async (headers: Record<string, string>) => {
      const response = await fetch(`${server.baseUrl}/api/0/organizations/`, { headers });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    assert.deepStrictEqual(await bad({ authorization: `Bearer sntryu_${"0".repeat(64)}` }), { status: 401, body: { detail: INVALID_TOKEN } });
    assert.deepStrictEqual(await bad({ authorization: "Bearer not-a-token" }), { status: 401, body: { detail: INVALID_TOKEN } });
    assert.deepStrictEqual(await bad({ authorization: "Basic b3duZXI6cGFzc3dvcmQ=" }), { status: 401, body: { detail: INVALID_TOKEN } });
    assert.deepStrictEqual(await bad({ cookie: `${SESSION_COOKIE}=${"a".repeat(64)}` }), { status: 401, body: { detail: INVALID_SESSION } });
    // A bad Bearer token is not rescued by a good cookie.
    const session = f.sessions.owner;
    assert.ok(session.kind === "session");
    assert.deepStrictEqual(await bad({ authorization: "Bearer nope", cookie: `${SESSION_COOKIE}=${session.sessionToken}` }), {
      status: 401,
      body: { detail: INVALID_TOKEN },
    });
    // Unknown /api/0 paths stay a plain 404 (documented), with or without credentials.
    assert.equal((await request(server, ANONYMOUS, "GET", "/api/0/nothing-here/")).status, 404);
  });

  it("revokes a token at once: the very next request with it is refused", async () => {
    const created = await request(server, f.sessions.member, "POST", "/api/0/api-tokens/", { name: "ci", scopes: ["event:read"] });
    assert.equal(created.status, 201);
    const { id, token, tokenLastCharacters } = created.body as { id: string; token: string; tokenLastCharacters: string };
    assert.equal(token.slice(-4), tokenLastCharacters);
    const asToken: Credentials = { kind: "token", userId: f.users.member.id, tokenId: id, token, scopes: ["event:read"] };
    assert.equal((await request(server, asToken, "GET", `/api/0/issues/${f.alpha.issueId}/`)).status, 200);
    const listed = await request(server, f.sessions.member, "GET", "/api/0/api-tokens/");
    const entry = (listed.body as { id: string; lastUsedDate: string | null; scopes: string[] }[]).find((candidate) => candidate.id === id);
    assert.deepStrictEqual([entry?.scopes, typeof entry?.lastUsedDate], [["event:read"], "string"]);
    // Someone else cannot revoke it: their view of it is "not found".
    await expectRefusal(f.sessions.admin, "DELETE", `/api/0/api-tokens/${id}/`, 404, "token not found");
    const revoked = await request(server, f.sessions.member, "DELETE", `/api/0/api-tokens/${id}/`);
    assert.deepStrictEqual(revoked, { status: 204, body: null });
    await expectRefusal(asToken, "GET", `/api/0/issues/${f.alpha.issueId}/`, 401, INVALID_TOKEN);
    await expectRefusal(f.sessions.member, "DELETE", `/api/0/api-tokens/${id}/`, 404, "token not found");
  });

  it("lets a token see and revoke only itself, and not mint new tokens", async () => {
    const sibling = await server.withStorage((storage) => tokenOf(storage, f.users.admin, ["event:read"]));
    const asToken = await server.withStorage((storage) => tokenOf(storage, f.users.admin, ["project:read"]));
    assert.ok(asToken.kind === "token" && sibling.kind === "token");
    await expectRefusal(asToken, "POST", "/api/0/api-tokens/", 403, "This endpoint needs a signed-in session: API tokens cannot use it", { name: "x", scopes: ["org:admin"] });
    const listed = await request(server, asToken, "GET", "/api/0/api-tokens/");
    assert.deepStrictEqual((listed.body as { id: string }[]).map((token) => token.id), [asToken.tokenId]);
    await expectRefusal(asToken, "DELETE", `/api/0/api-tokens/${sibling.tokenId}/`, 404, "token not found");
    assert.equal((await request(server, sibling, "GET", `/api/0/organizations/default/projects/`)).status, 403, "the sibling still works (and lacks project:read)");
    assert.equal((await request(server, asToken, "DELETE", `/api/0/api-tokens/${asToken.tokenId}/`)).status, 204);
    await expectRefusal(asToken, "GET", "/api/0/api-tokens/", 401, INVALID_TOKEN);
  });

  it("ends a session at its expiry", async () => {
    const short = await server.withStorage((storage) => sessionOf(storage, f.users.viewer, 1000));
    assert.equal((await request(server, short, "GET", "/api/0/organizations/default/projects/")).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expectRefusal(short, "GET", "/api/0/organizations/default/projects/", 401, INVALID_SESSION);
  });
});

describe("CSRF", () => {
  const issuePath = () => `/api/0/issues/${f.alpha.issueId}/`;

  it("refuses cookie requests that change state without the session's X-CSRFToken", async () => {
    const member = f.sessions.member;
    assert.ok(member.kind === "session");
    await expectRefusal(member, "PUT", issuePath(), 403, CSRF_FAILED, { status: "resolved" }, "none");
    await expectRefusal(member, "PUT", issuePath(), 403, CSRF_FAILED, { status: "resolved" }, "f".repeat(64));
    // Another session's token does not fit this one.
    const admin = f.sessions.admin;
    assert.ok(admin.kind === "session");
    await expectRefusal(member, "PUT", issuePath(), 403, CSRF_FAILED, { status: "resolved" }, admin.csrfToken);
    await expectRefusal(f.sessions.admin, "POST", "/api/0/projects/default/alpha-app/keys/", 403, CSRF_FAILED, { name: "csrf" }, "none");
    await expectRefusal(f.sessions.member, "POST", "/api/0/api-tokens/", 403, CSRF_FAILED, { name: "csrf", scopes: ["event:read"] }, "none");
    // Nothing happened.
    const issue = await request(server, f.ownerToken, "GET", issuePath());
    assert.equal((issue.body as { status: string }).status, "unresolved");
    const keys = await request(server, f.ownerToken, "GET", "/api/0/projects/default/alpha-app/keys/");
    assert.ok(!(keys.body as { label: string }[]).some((key) => key.label === "csrf"));

    // Reading needs none; the right token is accepted.
    assert.equal((await request(server, member, "GET", issuePath(), undefined, "none")).status, 200);
    const resolved = await request(server, member, "PUT", issuePath(), { status: "resolved" }, member.csrfToken);
    assert.deepStrictEqual([resolved.status, (resolved.body as { status: string }).status], [200, "resolved"]);
  });

  it("needs no CSRF token with a Bearer token", async () => {
    const answer = await request(server, f.ownerToken, "PUT", issuePath(), { status: "unresolved" });
    assert.deepStrictEqual([answer.status, (answer.body as { status: string }).status], [200, "unresolved"]);
  });
});

describe("effective scopes", () => {
  it("a token narrower than its owner's role acts with the token's scopes", async () => {
    const readOnly = await server.withStorage((storage) => tokenOf(storage, f.users.admin, ["event:read"]));
    assert.equal((await request(server, readOnly, "GET", `/api/0/issues/${f.alpha.issueId}/`)).status, 200);
    const put = await request(server, readOnly, "PUT", `/api/0/issues/${f.alpha.issueId}/`, { status: "resolved" });
    assert.deepStrictEqual(put, {
      status: 403,
      body: { detail: "You do not have permission to perform this action: it needs the event:write scope, which this token does not grant" },
    });
    assert.equal((await request(server, readOnly, "GET", "/api/0/organizations/default/projects/")).status, 403);
  });

  it("a role narrower than the token limits it to what the role grants", async () => {
    const wide = await server.withStorage((storage) => tokenOf(storage, f.users.viewer, ["event:read", "event:write", "project:write", "org:write"]));
    assert.equal((await request(server, wide, "GET", `/api/0/issues/${f.alpha.issueId}/`)).status, 200);
    for (const [method, path, body] of [
      ["PUT", `/api/0/issues/${f.alpha.issueId}/`, { status: "resolved" }],
      ["POST", "/api/0/projects/default/alpha-app/keys/", { name: "viewer key" }],
      ["GET", "/api/0/organizations/default/audit-logs/", undefined],
    ] as const) {
      assert.equal((await request(server, wide, method, path, body)).status, 403, `${method} ${path}`);
    }
  });

  it("a demoted person's token loses the rights at once", async () => {
    const person = await server.withStorage(async (storage) => {
      const user = await newUser(storage, "demoted@example.com");
      await join(storage, "default", user, "admin", []);
      return user;
    });
    const token = await server.withStorage((storage) => tokenOf(storage, person, ["project:write"]));
    assert.equal((await request(server, token, "POST", "/api/0/projects/default/beta-app/keys/", { name: "while admin" })).status, 201);
    await server.withStorage(async (storage) => {
      const organization = await storage.organizations.getBySlug("default");
      const member = organization ? await storage.accounts.members.get(organization.id, person.id) : null;
      assert.ok(member);
      await storage.accounts.members.setRole(member.id, "member");
    });
    assert.equal((await request(server, token, "POST", "/api/0/projects/default/beta-app/keys/", { name: "after demotion" })).status, 403);
  });
});

describe("audit", () => {
  it("records token changes with the person and client address, for owners and admins to read", async () => {
    const created = await request(server, f.sessions.admin, "POST", "/api/0/api-tokens/", { name: "audited", scopes: ["org:read"] });
    const { id } = created.body as { id: string };
    assert.equal((await request(server, f.sessions.admin, "DELETE", `/api/0/api-tokens/${id}/`)).status, 204);
    const log = await request(server, f.sessions.owner, "GET", "/api/0/organizations/default/audit-logs/?per_page=10");
    const rows = (log.body as { rows: { event: string; targetObject: string; actor: { email: string } | null; ipAddress: string | null }[] }).rows;
    const mine = rows.filter((row) => row.targetObject === id).map((row) => [row.event, row.actor?.email, row.ipAddress]);
    assert.deepStrictEqual(mine, [
      ["token.revoke", "admin@example.com", "127.0.0.1"],
      ["token.create", "admin@example.com", "127.0.0.1"],
    ]);
    await expectRefusal(f.sessions.owner, "GET", "/api/0/organizations/default/audit-logs/?per_page=0", 400, "per_page: must be an integer from 1 to 100");
  });
});
