/**
 * Abuse of accounts by anonymous clients (issue 31, items 4 and 7), against one real server behind
 * a pretend proxy (TRUST_PROXY=true), so each request names its client address in X-Forwarded-For —
 * the path server.ts really takes to the login throttle.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accessTo } from "../../src/services/accounts/access";
import { CLI_ACTOR } from "../../src/services/accounts/actor";
import { startSession } from "../../src/services/accounts/login";
import { createInvite } from "../../src/services/accounts/members";
import { join, newUser, TEST_PASSWORD } from "../helpers/accounts";
import { OWNER_EMAIL, startServer, type TestServer } from "../helpers/server";

let server: TestServer;

before(async () => {
  server = await startServer({ TRUST_PROXY: "true" });
});

after(async () => {
  await server?.stop();
});

/** A JSON login as if from `address` (the proxy appends the client's address last). */
function loginFrom(address: string, email: string, password: string): Promise<Response> {
  return fetch(`${server.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.255.0.1, ${address}` },
    body: JSON.stringify({ email, password }),
  });
}

/** The sign-in form, as a browser at `address` posts it. */
function formLoginFrom(address: string, email: string, password: string): Promise<Response> {
  return fetch(`${server.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(server.baseUrl).origin, "X-Forwarded-For": address },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
}

describe("login throttling", () => {
  it("failed logins from one address do not lock the account for another address", { timeout: 60_000 }, async () => {
    await server.withStorage(async (storage) => join(storage, "default", await newUser(storage, "victim@example.com"), "member", []));
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await loginFrom("198.51.100.1", "victim@example.com", `wrong guess ${attempt}`);
      assert.equal(wrong.status, 401, `attempt ${attempt}`);
    }
    const attacker = await loginFrom("198.51.100.1", "victim@example.com", TEST_PASSWORD);
    assert.equal(attacker.status, 429, "the guessing address is refused even the right password");

    const person = await loginFrom("203.0.113.50", "victim@example.com", TEST_PASSWORD);
    assert.equal(person.status, 200, `the person elsewhere signs in: ${await person.text()}`);
    assert.ok(person.headers.getSetCookie().some((cookie) => cookie.startsWith("periscope_session=")));

    // The same through the sign-in form.
    const formAttacker = await formLoginFrom("198.51.100.1", "victim@example.com", TEST_PASSWORD);
    assert.equal(formAttacker.status, 303);
    assert.match(formAttacker.headers.get("location") ?? "", /^\/login\?error=throttled&wait=\d+$/);
    const formPerson = await formLoginFrom("203.0.113.51", "victim@example.com", TEST_PASSWORD);
    assert.equal(formPerson.status, 303);
    assert.equal(formPerson.headers.get("location"), "/organizations/default");
  });

  it("brute force from one address is still throttled, with the wait named", { timeout: 60_000 }, async () => {
    await server.withStorage(async (storage) => newUser(storage, "target@example.com"));
    for (let attempt = 1; attempt <= 5; attempt++) {
      assert.equal((await loginFrom("192.0.2.33", "target@example.com", `guess ${attempt}`)).status, 401, `attempt ${attempt}`);
    }
    for (const password of ["guess 6", TEST_PASSWORD]) {
      const refused = await loginFrom("192.0.2.33", "target@example.com", password);
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      assert.ok(retryAfter > 840 && retryAfter <= 900, `Retry-After ${retryAfter}`);
      const body = (await refused.json()) as { detail: string; retryAfter: number };
      assert.equal(body.detail, "Too many failed login attempts for this account from your network address. Try again in 15 minutes.");
      assert.equal(body.retryAfter, retryAfter);
    }
  });
});

describe("invite race", () => {
  it("six parallel sign-ups with one invite yield exactly one account and one member", { timeout: 60_000 }, async () => {
    const secret = await server.withStorage(async (storage) => {
      const owner = (await storage.accounts.users.getByEmail(OWNER_EMAIL))!;
      const organization = (await storage.organizations.getBySlug("default"))!;
      const { session } = await startSession(storage, owner, Date.now(), 60_000);
      const access = await accessTo(storage, { kind: "session", user: owner, session }, organization);
      return (await createInvite(storage, access, CLI_ACTOR, { role: "member" }, Date.now())).secret;
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const response = await fetch(`${server.baseUrl}/auth/invite/${secret}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ mode: "signup", email: `racer${i}@example.com`, name: `Racer ${i}`, password: TEST_PASSWORD }),
        });
        return { email: `racer${i}@example.com`, status: response.status, body: (await response.json()) as unknown };
      }),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(answers));
    assert.deepEqual(winners[0]!.body, { organization: "default" });
    for (const loser of answers.filter((answer) => answer.status !== 200)) {
      assert.deepEqual([loser.status, loser.body], [409, { detail: "This invite link has already been used." }]);
    }
    const { accounts, members } = await server.withStorage(async (storage) => {
      const organization = (await storage.organizations.getBySlug("default"))!;
      return {
        accounts: (await storage.accounts.users.list()).map((user) => user.email).filter((email) => email.startsWith("racer")),
        members: (await storage.accounts.members.listByOrganization(organization.id)).map((member) => member.user.email).filter((email) => email.startsWith("racer")),
      };
    });
    assert.deepEqual(accounts, [winners[0]!.email]);
    assert.deepEqual(members, [winners[0]!.email]);
  });
});
