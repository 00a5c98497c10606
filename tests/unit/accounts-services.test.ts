/**
 * The accounts services on a real SQLite file: login and its throttle, sessions, tokens and their
 * effective scopes, invitations, role rules, ownership, team visibility and the audit trail.
 * (Engine behaviour itself is covered by the contract suite on both engines.)
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { verifyPassword } from "../../src/auth/password";
import { AppError } from "../../src/errors";
import { accessTo, canSeeProject, hasScope, requireScope, type Principal } from "../../src/services/accounts/access";
import { actorOf, CLI_ACTOR } from "../../src/services/accounts/actor";
import { authenticateApiToken, authenticateSession } from "../../src/services/accounts/authenticate";
import { login, logoutEverywhere, startSession } from "../../src/services/accounts/login";
import { acceptInvite, changeRole, createInvite, removeMember, signUpWithInvite, transferOwnership } from "../../src/services/accounts/members";
import { createTeam, listTeamDetails, listTeamSummaries, setTeamProject } from "../../src/services/accounts/teams";
import { createApiToken, revokeApiToken } from "../../src/services/accounts/tokens";
import { addMember, changePassword, createOwner, createUser, resetPassword } from "../../src/services/accounts/users";
import { createProject } from "../../src/services/projects/create-project";
import { ensureDefaults } from "../../src/services/projects/ensure-defaults";
import { createSqliteStorage } from "../../src/storage/sqlite";
import type { Organization, User } from "../../src/model";
import type { Storage } from "../../src/storage/types";

const NOW = Date.UTC(2026, 10, 22, 10, 0);
const MINUTE = 60_000;
const TTL = 3_600_000;
const PASSWORD = "correct horse battery";

async function rejectsWith(promise: Promise<unknown>, code: AppError["code"], message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

describe("accounts services (SQLite)", () => {
  let dir: string;
  let storage: Storage;
  let organization: Organization;
  let owner: User;

  const sessionOf = async (user: User): Promise<Principal> => {
    const started = await startSession(storage, user, NOW, TTL);
    return { kind: "session", user, session: started.session };
  };
  const accessOf = async (user: User) => accessTo(storage, await sessionOf(user), organization);
  const newMember = async (email: string, role: "admin" | "member" | "viewer" | "owner") => {
    const user = await createUser(storage, { email, password: PASSWORD });
    await addMember(storage, CLI_ACTOR, organization, user, role);
    return user;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "periscope-accounts-"));
    storage = createSqliteStorage(dir);
    organization = (await ensureDefaults(storage)).organization;
    owner = await createOwner(storage, organization, { email: "Owner@Example.com", name: "Olive", password: PASSWORD }, { via: "setup", ipAddress: "10.0.0.1" });
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("setup and users", () => {
    it("makes the first account the owner of the default organisation, lower-casing its email, and refuses a second setup", async () => {
      assert.equal(owner.email, "owner@example.com");
      assert.equal(owner.name, "Olive");
      const member = await storage.accounts.members.get(organization.id, owner.id);
      assert.equal(member?.role, "owner");
      await rejectsWith(
        createOwner(storage, organization, { email: "late@example.com", password: PASSWORD }, { via: "setup", ipAddress: null }),
        "conflict",
        /setup is already complete/,
      );
      assert.equal(await storage.accounts.users.getByEmail("late@example.com"), null);
    });

    it("refuses a duplicate email, a malformed email and a short password with messages naming them", async () => {
      await rejectsWith(createUser(storage, { email: "OWNER@example.com", password: PASSWORD }), "conflict", /owner@example\.com already exists/);
      await rejectsWith(createUser(storage, { email: "not-an-email", password: PASSWORD }), "bad_request", /email: must be an email address/);
      await rejectsWith(createUser(storage, { email: "short@example.com", password: "1234567" }), "bad_request", /at least 8 characters/);
    });

    it("stores the password as argon2id and changes it only with the current one, ending the other sessions", async () => {
      const hash = await storage.accounts.users.passwordHashOf(owner.id);
      assert.match(hash ?? "", /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      const kept = await startSession(storage, owner, NOW, TTL);
      const other = await startSession(storage, owner, NOW, TTL);
      await rejectsWith(changePassword(storage, owner, { currentPassword: "wrong password", newPassword: "a new password" }), "bad_request", /current password is not correct/);
      await changePassword(storage, owner, { currentPassword: PASSWORD, newPassword: "a new password", keepSessionId: kept.session.id });
      assert.equal(await verifyPassword("a new password", (await storage.accounts.users.passwordHashOf(owner.id))!), true);
      assert.notEqual(await authenticateSession(storage, kept.sessionToken, NOW), null);
      assert.equal(await authenticateSession(storage, other.sessionToken, NOW), null);
    });

    it("reset-password ends every session", async () => {
      const session = await startSession(storage, owner, NOW, TTL);
      await resetPassword(storage, "OWNER@example.com", "another password");
      assert.equal(await authenticateSession(storage, session.sessionToken, NOW), null);
      await rejectsWith(resetPassword(storage, "nobody@example.com", "another password"), "not_found", /no user with the email nobody@example\.com/);
    });
  });

  describe("login", () => {
    const attempt = (email: string, password: string, ipAddress: string | null, now = NOW) =>
      login(storage, { email, password, ipAddress, now, sessionTtlMs: TTL });

    it("starts a session that authenticates until it expires and records the login", async () => {
      const started = await attempt(" OWNER@example.com ", PASSWORD, "10.0.0.9");
      assert.equal(started.user.id, owner.id);
      assert.equal(started.session.expiresAt, NOW + TTL);
      assert.match(started.sessionToken, /^[0-9a-f]{64}$/);
      const principal = await authenticateSession(storage, started.sessionToken, NOW + TTL - 1);
      assert.deepEqual(principal && { kind: principal.kind, userId: principal.user.id }, { kind: "session", userId: owner.id });
      assert.equal(principal?.user.lastLogin, NOW);
      assert.equal(await authenticateSession(storage, started.sessionToken, NOW + TTL), null);
      assert.equal(await authenticateSession(storage, "not a token", NOW), null);
    });

    it("gives the same answer for an unknown account and a wrong password", async () => {
      await rejectsWith(attempt("owner@example.com", "wrong password", null), "unauthorized", /^The email address or password is not correct\.$/);
      await rejectsWith(attempt("nobody@example.com", PASSWORD, null), "unauthorized", /^The email address or password is not correct\.$/);
      // An address no account can have is refused without a throttle key (which it would only bloat).
      await rejectsWith(attempt(`${"a".repeat(250)}@example.com`, PASSWORD, "10.0.0.3"), "unauthorized", /^The email address or password is not correct\.$/);
      assert.equal(await storage.accounts.loginThrottle.countSince("ip:10.0.0.3", 0), 0);
    });

    it("blocks an address after 5 failures at one account, even with the right password, but not the account elsewhere", async () => {
      for (let i = 0; i < 5; i += 1) {
        await rejectsWith(attempt("owner@example.com", "wrong password", "10.0.1.1", NOW + i * MINUTE), "unauthorized", /not correct/);
      }
      await assert.rejects(attempt("owner@example.com", PASSWORD, "10.0.1.1", NOW + 5 * MINUTE), (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, "rate_limited");
        assert.equal(error.message, "Too many failed login attempts for this account from your network address. Try again in 10 minutes.");
        assert.equal(error.retryAfterSeconds, 600);
        return true;
      });
      // The person, from their own address, is not locked out by someone else's failures.
      assert.equal((await attempt("owner@example.com", PASSWORD, "10.0.2.1", NOW + 5 * MINUTE)).user.id, owner.id);
      // Another account from the blocked address is not blocked either (5 failures are under the address's 50).
      const other = await createUser(storage, { email: "other@example.com", password: PASSWORD });
      assert.equal((await attempt("other@example.com", PASSWORD, "10.0.1.1", NOW + 5 * MINUTE)).user.id, other.id);
      // Once the first failure leaves the window, 4 remain: the right password gets in and clears that address's count.
      assert.equal((await attempt("owner@example.com", PASSWORD, "10.0.1.1", NOW + 15 * MINUTE)).user.id, owner.id);
      assert.equal(await storage.accounts.loginThrottle.countSince("ip-email:10.0.1.1 owner@example.com", 0), 0);
      // Signing in does not reset the account-wide count (an attacker's budget).
      assert.equal(await storage.accounts.loginThrottle.countSince("email:owner@example.com", 0), 5);
    });

    it("blocks a client address after 50 failures across accounts, without blocking the accounts elsewhere", async () => {
      for (let i = 0; i < 50; i += 1) {
        await rejectsWith(attempt(`guess${i}@example.com`, "wrong password", "192.0.2.7"), "unauthorized", /not correct/);
      }
      await rejectsWith(attempt("owner@example.com", PASSWORD, "192.0.2.7"), "rate_limited", /^Too many failed login attempts from your network address\. Try again in 15 minutes/);
      const elsewhere = await attempt("owner@example.com", PASSWORD, "198.51.100.1");
      assert.equal(elsewhere.user.id, owner.id);
    });

    it("throttles an IPv6 client by its /64 and an IPv4-mapped one as IPv4", async () => {
      for (let i = 0; i < 5; i += 1) {
        await rejectsWith(attempt("owner@example.com", "wrong password", `2001:db8:1:2::${i + 1}`), "unauthorized", /not correct/);
      }
      await rejectsWith(attempt("owner@example.com", PASSWORD, "2001:db8:1:2:ffff::9"), "rate_limited", /from your network address/);
      assert.equal((await attempt("owner@example.com", PASSWORD, "2001:db8:1:3::1")).user.id, owner.id);
      for (let i = 0; i < 5; i += 1) {
        await rejectsWith(attempt("owner@example.com", "wrong password", "::ffff:203.0.113.5"), "unauthorized", /not correct/);
      }
      await rejectsWith(attempt("owner@example.com", PASSWORD, "203.0.113.5"), "rate_limited", /from your network address/);
    });

    it("under a spread-out attack on one account (over 100 failures an hour), lets each address try once an hour and the person in", async () => {
      const throttle = storage.accounts.loginThrottle;
      for (let i = 0; i < 99; i += 1) await throttle.recordFailure("email:owner@example.com", NOW - 30 * MINUTE + i);
      await throttle.recordFailure("ip-email:203.0.113.66 owner@example.com", NOW - 30 * MINUTE);
      // The 100th failure is still within the budget: an address with an earlier failure may still try.
      await rejectsWith(attempt("owner@example.com", "wrong password", "203.0.113.66"), "unauthorized", /not correct/);
      // Past 100, that address, having failed here within the hour, waits until its oldest failure is an hour old, right password or not.
      await assert.rejects(attempt("owner@example.com", PASSWORD, "203.0.113.66"), (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, "rate_limited");
        assert.match(error.message, /^This account is receiving many failed login attempts; from your network address, one attempt an hour is allowed\. Try again in 30 minutes\.$/);
        assert.equal(error.retryAfterSeconds, 1800);
        return true;
      });
      // A fresh address gets one guess, checked, then waits an hour.
      await rejectsWith(attempt("owner@example.com", "wrong password", "198.51.100.20"), "unauthorized", /not correct/);
      await rejectsWith(attempt("owner@example.com", "another guess", "198.51.100.20", NOW + MINUTE), "rate_limited", /one attempt an hour.*Try again in 59 minutes/);
      // The person, from an address that has not failed here, signs in.
      assert.equal((await attempt("owner@example.com", PASSWORD, "198.51.100.21")).user.id, owner.id);
      // Refused attempts were not counted; the two checked guesses were.
      assert.equal(await throttle.countSince("email:owner@example.com", 0), 101);
    });

    it("lets no more than 5 of 30 simultaneous guesses from one address reach the password check", async () => {
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => attempt("owner@example.com", `guess number ${i}`, "10.9.0.1")));
      const codes = results.map((result) => (result.status === "rejected" && result.reason instanceof AppError ? result.reason.code : "other"));
      const checked = codes.filter((code) => code === "unauthorized").length;
      assert.ok(checked <= 5, `${checked} guesses were checked`);
      assert.equal(codes.filter((code) => code === "rate_limited").length, 30 - checked);
      assert.equal(await storage.accounts.loginThrottle.countSince("ip-email:10.9.0.1 owner@example.com", 0), checked, "refused attempts are not counted");
      assert.equal(await storage.accounts.loginThrottle.countSince("email:owner@example.com", 0), checked);
    });

    it("throttles guessing the current password through a password change, apart from login", async () => {
      for (let i = 0; i < 5; i += 1) {
        await rejectsWith(changePassword(storage, owner, { currentPassword: `wrong ${i}`, newPassword: "a new password", now: NOW }), "bad_request", /current password is not correct/);
      }
      await rejectsWith(changePassword(storage, owner, { currentPassword: PASSWORD, newPassword: "a new password", now: NOW }), "rate_limited", /^Too many wrong current passwords for this account\. Try again in 15 minutes/);
      assert.equal((await attempt("owner@example.com", PASSWORD, null)).user.id, owner.id);
      // Failed logins by others do not block the person's password change.
      for (let i = 0; i < 6; i += 1) await storage.accounts.loginThrottle.recordFailure("email:owner@example.com", NOW);
      await changePassword(storage, owner, { currentPassword: PASSWORD, newPassword: "a new password", now: NOW + 15 * MINUTE });
    });

    it("a successful login from an address does not count against that address", async () => {
      await attempt("owner@example.com", PASSWORD, "10.7.7.7");
      assert.equal(await storage.accounts.loginThrottle.countSince("ip:10.7.7.7", 0), 0);
    });

    it("logs out everywhere", async () => {
      const first = await attempt("owner@example.com", PASSWORD, null);
      const second = await attempt("owner@example.com", PASSWORD, null);
      assert.equal(await logoutEverywhere(storage, owner), 2);
      assert.equal(await authenticateSession(storage, first.sessionToken, NOW), null);
      assert.equal(await authenticateSession(storage, second.sessionToken, NOW), null);
    });
  });

  describe("API tokens", () => {
    it("authenticates a token by its digest until it is revoked, recording its use", async () => {
      const { token, apiToken } = await createApiToken(storage, actorOf(owner, null), owner, { name: "deploys", scopes: ["project:releases", "event:read", "event:read"] });
      assert.match(token, /^sntryu_[0-9a-f]{64}$/);
      assert.deepEqual(
        { name: apiToken.name, scopes: apiToken.scopes, lastChars: apiToken.tokenLastChars, lastUsed: apiToken.lastUsed },
        { name: "deploys", scopes: ["project:releases", "event:read"], lastChars: token.slice(-4), lastUsed: null },
      );
      const principal = await authenticateApiToken(storage, token, NOW);
      assert.equal(principal?.kind, "token");
      assert.equal((await storage.accounts.tokens.listForUser(owner.id))[0]?.lastUsed, NOW);
      await revokeApiToken(storage, actorOf(owner, null), owner, apiToken.id);
      assert.equal(await authenticateApiToken(storage, token, NOW + 1), null);
      assert.equal(await authenticateApiToken(storage, `${token}0`, NOW), null);
    });

    it("refuses unknown scopes and another person's token", async () => {
      await rejectsWith(createApiToken(storage, CLI_ACTOR, owner, { name: "x", scopes: ["event:read", "god:mode"] }), "bad_request", /unknown scope: god:mode/);
      const viewer = await newMember("viewer@example.com", "viewer");
      const { token, apiToken } = await createApiToken(storage, CLI_ACTOR, owner, { name: "mine", scopes: ["org:read"] });
      await rejectsWith(revokeApiToken(storage, CLI_ACTOR, viewer, apiToken.id), "not_found", /token not found/);
      assert.notEqual(await authenticateApiToken(storage, token, NOW), null);
    });

    it("acts with the token's scopes that the owner's role still grants", async () => {
      const member = await newMember("member@example.com", "member");
      const { token } = await createApiToken(storage, CLI_ACTOR, member, { name: "wide", scopes: ["event:admin", "project:write"] });
      const access = await accessTo(storage, (await authenticateApiToken(storage, token, NOW))!, organization);
      assert.deepEqual([...access.scopes].sort(), ["event:admin"]);
      assert.equal(hasScope(access, "event:read"), true, "event:admin includes event:read");
      assert.equal(hasScope(access, "project:read"), false, "the token does not carry project:read");
      assert.throws(() => requireScope(access, "project:write"), /needs the project:write scope, which this token does not grant/);
      const viewerAccess = await accessOf(await newMember("v@example.com", "viewer"));
      assert.throws(() => requireScope(viewerAccess, "event:write"), /which the viewer role does not grant/);
    });
  });

  describe("organisations, teams and visibility", () => {
    it("answers not found to a non-member and shows members only their teams' projects", async () => {
      const other = await storage.organizations.create({ slug: "other", name: "Other" });
      await rejectsWith(accessTo(storage, await sessionOf(owner), other), "not_found", /organization not found/);

      const ownerAccess = await accessOf(owner);
      const team = await createTeam(storage, ownerAccess, actorOf(owner, null), { name: "Mobile" });
      assert.equal(team.slug, "mobile");
      const { project: app } = await createProject(storage, CLI_ACTOR, organization, team, { name: "App" });
      const { project: loose } = await createProject(storage, CLI_ACTOR, organization, null, { name: "Loose" });

      const member = await newMember("m@example.com", "member");
      const before = await accessOf(member);
      assert.equal(canSeeProject(before, app), false);
      await storage.accounts.teams.addMember(team.id, before.member.id);
      const after = await accessOf(member);
      assert.equal(canSeeProject(after, app), true);
      assert.equal(canSeeProject(after, loose), false);
      assert.equal(canSeeProject(ownerAccess, loose), true, "owners see projects of no team");

      await setTeamProject(storage, ownerAccess, actorOf(owner, null), team, app, false);
      assert.equal(canSeeProject(await accessOf(member), app), false);
      await rejectsWith(setTeamProject(storage, after, actorOf(member, null), team, app, true), "forbidden", /project:write/);
    });

    it("lists every team with its members, projects and whether the caller is on it, as asking team by team does", async () => {
      const ownerAccess = await accessOf(owner);
      const actor = actorOf(owner, null);
      const mobile = await createTeam(storage, ownerAccess, actor, { name: "Mobile" });
      const web = await createTeam(storage, ownerAccess, actor, { name: "Web" });
      const { project: app } = await createProject(storage, CLI_ACTOR, organization, mobile, { name: "App" });
      const member = await newMember("m@example.com", "member");
      const memberAccess = await accessOf(member);
      await storage.accounts.teams.addMember(mobile.id, memberAccess.member.id);
      await storage.accounts.teams.addMember(mobile.id, ownerAccess.member.id);

      const { teams } = storage.accounts;
      const summaries = await listTeamSummaries(storage, memberAccess);
      const mine = new Set((await teams.listForMember(memberAccess.member.id)).map((team) => team.id));
      const oneByOne = await Promise.all(
        (await teams.listByOrganization(organization.id)).map(async (team) => ({
          team,
          memberCount: (await teams.listMembers(team.id)).length,
          isMember: mine.has(team.id),
        })),
      );
      assert.deepEqual(summaries, oneByOne);
      assert.deepEqual(
        summaries.filter(({ team }) => team.id === mobile.id || team.id === web.id).map(({ team, memberCount, isMember }) => [team.slug, memberCount, isMember]),
        [["mobile", 2, true], ["web", 0, false]],
      );

      const details = await listTeamDetails(storage, ownerAccess);
      const byId = new Map(details.teams.map((entry) => [entry.team.id, entry]));
      assert.deepEqual(byId.get(mobile.id)?.members.map((m) => m.user.email), ["m@example.com", "owner@example.com"]);
      assert.deepEqual([...(byId.get(mobile.id)?.projectIds ?? [])], [app.id]);
      assert.deepEqual(byId.get(web.id)?.members, []);
      assert.deepEqual([...(byId.get(web.id)?.projectIds ?? [])], []);
      for (const entry of details.teams) {
        assert.deepEqual(entry.members, await teams.listMembers(entry.team.id));
        assert.deepEqual([...entry.projectIds], await teams.listProjectIds(entry.team.id));
      }
      assert.deepEqual(details.members, await storage.accounts.members.listByOrganization(organization.id));
      assert.deepEqual(details.projects, await storage.projects.listByOrganization(organization.id));

      const withoutTeamRead = { ...memberAccess, scopes: new Set(["org:read" as const]) };
      await rejectsWith(listTeamSummaries(storage, withoutTeamRead), "forbidden", /team:read/);
      await rejectsWith(listTeamDetails(storage, withoutTeamRead), "forbidden", /team:read/);
    });
  });

  describe("membership", () => {
    it("admits exactly one person per invite link, with its role and teams, and audits it", async () => {
      const ownerAccess = await accessOf(owner);
      const team = await createTeam(storage, ownerAccess, actorOf(owner, "10.0.0.1"), { name: "Web" });
      const { secret, invite } = await createInvite(storage, ownerAccess, actorOf(owner, "10.0.0.1"), { role: "viewer", teamIds: [team.id] }, NOW);
      assert.match(secret, /^[0-9a-f]{64}$/);
      const { user, member } = await signUpWithInvite(storage, secret, { email: "new@example.com", password: PASSWORD }, "10.0.0.2", NOW + MINUTE);
      assert.deepEqual({ role: member.role, userId: member.userId }, { role: "viewer", userId: user.id });
      // Invited people join the invite's teams only (not the default team).
      assert.deepEqual((await storage.accounts.teams.listForMember(member.id)).map((t) => t.slug), ["web"]);
      const late = await createUser(storage, { email: "late@example.com", password: PASSWORD });
      await rejectsWith(acceptInvite(storage, secret, late, null, NOW + 2 * MINUTE), "conflict", /already been used/);

      const entries = await storage.accounts.audit.list(organization.id, 10);
      const invited = entries.find((entry) => entry.event === "member.invite");
      assert.deepEqual(
        invited && { actor: invited.actorLabel, userId: invited.actorUserId, target: [invited.targetType, invited.targetId], data: invited.data, ip: invited.ipAddress },
        { actor: "owner@example.com", userId: owner.id, target: ["invite", invite.id], data: { role: "viewer", email: null }, ip: "10.0.0.1" },
      );
      const joined = entries.find((entry) => entry.event === "member.accept_invite");
      assert.deepEqual(joined && { actor: joined.actorLabel, ip: joined.ipAddress, data: joined.data }, { actor: "new@example.com", ip: "10.0.0.2", data: { role: "viewer", inviteId: invite.id } });
    });

    it("makes one account and one member of six simultaneous sign-ups with one invite; the others are told it was used", async () => {
      const { secret } = await createInvite(storage, await accessOf(owner), CLI_ACTOR, { role: "member" }, NOW);
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => signUpWithInvite(storage, secret, { email: `racer${i}@example.com`, password: PASSWORD }, `10.0.3.${i}`, NOW)),
      );
      const joined = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      assert.equal(joined.length, 1);
      for (const result of results) {
        if (result.status === "rejected") {
          assert.ok(result.reason instanceof AppError);
          assert.deepEqual([result.reason.code, result.reason.message], ["conflict", "This invite link has already been used."]);
        }
      }
      const accounts = (await storage.accounts.users.list()).map((user) => user.email).filter((email) => email.startsWith("racer"));
      assert.deepEqual(accounts, [joined[0]!.user.email]);
      const members = (await storage.accounts.members.listByOrganization(organization.id)).map((member) => member.user.email).sort();
      assert.deepEqual(members, [joined[0]!.user.email, "owner@example.com"].sort());
    });

    it("gives the invite back when the account cannot be created after the claim (the email was taken meanwhile)", async () => {
      const { secret, invite } = await createInvite(storage, await accessOf(owner), CLI_ACTOR, { role: "member" }, NOW);
      const users = storage.accounts.users;
      const create = users.create.bind(users);
      // Someone else takes the address between the sign-up's check and its insert.
      users.create = async (input) => {
        await create({ ...input, name: "Someone else" });
        return create(input);
      };
      try {
        await rejectsWith(signUpWithInvite(storage, secret, { email: "late@example.com", password: PASSWORD }, null, NOW), "conflict", /late@example\.com already exists/);
      } finally {
        users.create = create;
      }
      assert.deepEqual((await storage.accounts.invites.listPending(organization.id, NOW)).map((pending) => pending.id), [invite.id]);
      const { user } = await signUpWithInvite(storage, secret, { email: "later@example.com", password: PASSWORD }, null, NOW + MINUTE);
      assert.equal((await storage.accounts.members.get(organization.id, user.id))?.role, "member");
    });

    it("refuses expired, unknown and other-address invites", async () => {
      const ownerAccess = await accessOf(owner);
      const bound = await createInvite(storage, ownerAccess, CLI_ACTOR, { role: "member", email: "Bound@Example.com" }, NOW);
      const stranger = await createUser(storage, { email: "stranger@example.com", password: PASSWORD });
      await rejectsWith(acceptInvite(storage, bound.secret, stranger, null, NOW), "forbidden", /This invite is for bound@example\.com/);
      await rejectsWith(acceptInvite(storage, bound.secret, stranger, null, bound.invite.expiresAt), "conflict", /expired/);
      await rejectsWith(acceptInvite(storage, "0".repeat(64), stranger, null, NOW), "not_found", /not valid/);
    });

    it("keeps roles below the actor's own and always keeps an owner", async () => {
      const admin = await newMember("admin@example.com", "admin");
      const member = await newMember("member@example.com", "member");
      const adminAccess = await accessOf(admin);
      const ownerAccess = await accessOf(owner);
      const ownerMember = ownerAccess.member;
      const memberRow = (await storage.accounts.members.get(organization.id, member.id))!;

      await rejectsWith(createInvite(storage, adminAccess, CLI_ACTOR, { role: "owner" }, NOW), "forbidden", /cannot grant or change the owner role/);
      await rejectsWith(changeRole(storage, adminAccess, CLI_ACTOR, ownerMember.id, "viewer"), "forbidden", /owner role/);
      await rejectsWith(removeMember(storage, adminAccess, CLI_ACTOR, ownerMember.id), "forbidden", /owner role/);
      await rejectsWith(changeRole(storage, await accessOf(member), CLI_ACTOR, adminAccess.member.id, "viewer"), "forbidden", /member:write/);
      await rejectsWith(changeRole(storage, ownerAccess, CLI_ACTOR, memberRow.id, "superuser"), "bad_request", /role: must be/);
      assert.equal((await changeRole(storage, adminAccess, CLI_ACTOR, memberRow.id, "viewer")).role, "viewer");

      await rejectsWith(changeRole(storage, ownerAccess, CLI_ACTOR, ownerMember.id, "admin"), "conflict", /at least one owner/);
      await rejectsWith(removeMember(storage, ownerAccess, CLI_ACTOR, ownerMember.id), "conflict", /at least one owner/);
      await rejectsWith(transferOwnership(storage, adminAccess, CLI_ACTOR, memberRow.id), "forbidden", /org:admin/);

      await transferOwnership(storage, ownerAccess, CLI_ACTOR, adminAccess.member.id);
      assert.equal((await storage.accounts.members.get(organization.id, admin.id))?.role, "owner");
      assert.equal((await storage.accounts.members.get(organization.id, owner.id))?.role, "admin");
      // An access read while still an owner: storage checks again in the same statement as the change.
      await rejectsWith(transferOwnership(storage, ownerAccess, CLI_ACTOR, memberRow.id), "conflict", /no longer an owner/);
      assert.equal((await storage.accounts.members.get(organization.id, member.id))?.role, "viewer");

      // Anyone may leave; the removed person's access is gone at once.
      await removeMember(storage, await accessOf(member), CLI_ACTOR, memberRow.id);
      await rejectsWith(accessOf(member), "not_found", /organization not found/);
    });
  });
});
