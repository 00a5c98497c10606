/**
 * The accounts part of the storage contract (accounts-types.ts), called once per engine
 * (tests/unit/storage-<engine>.test.ts). Each test gets a fresh storage with two organisations.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AppError } from "../../src/errors";
import type { Member, Organization, Project, Storage, User } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const HOUR = 3_600_000;

const isAppError = (code: AppError["code"], message: RegExp) => (error: unknown) =>
  error instanceof AppError && error.code === code && message.test(error.message);

export function accountsContract(engine: string, factory: EngineFactory): void {
  describe(`accounts contract: ${engine}`, () => {
    let storage: Storage;
    let acme: Organization;
    let other: Organization;
    let web: Project;
    let api: Project;
    let ada: User;
    let bob: User;

    beforeEach(async () => {
      storage = await factory.create();
      acme = await storage.organizations.create({ slug: "acme", name: "Acme" });
      other = await storage.organizations.create({ slug: "other", name: "Other" });
      web = await storage.projects.create({ organizationId: acme.id, slug: "web", name: "Web", platform: "javascript" });
      api = await storage.projects.create({ organizationId: acme.id, slug: "api", name: "API", platform: "node" });
      ada = await storage.accounts.users.create({ email: "Ada@Example.COM", name: "Ada", passwordHash: "$argon2id$ada" });
      bob = await storage.accounts.users.create({ email: "bob@example.com", name: "Bob", passwordHash: "$argon2id$bob" });
    });
    afterEach(async () => factory.destroy(storage));

    it("stores users with lower-cased unique emails and their password hashes", async () => {
      const { users } = storage.accounts;
      assert.deepEqual(ada, { id: ada.id, email: "ada@example.com", name: "Ada", dateCreated: ada.dateCreated, lastLogin: null });
      assert.ok(Math.abs(ada.dateCreated - Date.now()) < 60_000);
      assert.deepEqual(await users.getById(ada.id), ada);
      assert.deepEqual(await users.getByEmail("ADA@example.com"), ada);
      assert.deepEqual(await users.list(), [ada, bob]);
      assert.equal(await users.count(), 2);
      await assert.rejects(users.create({ email: "ada@EXAMPLE.com", name: "Other Ada", passwordHash: "x" }), isAppError("conflict", /ada@example\.com/));
      assert.equal(await users.count(), 2);
      assert.equal(await users.getById("999999"), null);
      assert.equal(await users.getById("not-an-id"), null);
      assert.equal(await users.getByEmail("nobody@example.com"), null);

      assert.equal(await users.passwordHashOf(ada.id), "$argon2id$ada");
      await users.setPasswordHash(ada.id, "$argon2id$new");
      assert.equal(await users.passwordHashOf(ada.id), "$argon2id$new");
      assert.equal(await users.passwordHashOf(bob.id), "$argon2id$bob");
      assert.equal(await users.passwordHashOf("999999"), null);

      await users.recordLogin(ada.id, NOW);
      assert.deepEqual(await users.getById(ada.id), { ...ada, lastLogin: NOW });
      assert.deepEqual(await users.getById(bob.id), bob);
    });

    it("creates the first user only while there is none, even when asked several times at once", async () => {
      assert.equal(await storage.accounts.users.createFirst({ email: "late@example.com", name: "Late", passwordHash: "$argon2id$x" }), null);
      assert.equal(await storage.accounts.users.count(), 2);
      const fresh = await factory.create();
      try {
        const attempts = await Promise.all(
          ["a", "b", "c", "d"].map((who) => fresh.accounts.users.createFirst({ email: `${who}@First.example`, name: who, passwordHash: "$argon2id$x" })),
        );
        const created = attempts.filter((user) => user !== null);
        assert.equal(created.length, 1);
        assert.equal(await fresh.accounts.users.count(), 1);
        assert.match(created[0]!.email, /^[abcd]@first\.example$/);
      } finally {
        await factory.destroy(fresh);
      }
    });

    it("finds login sessions by token digest until they expire, and logs out everywhere", async () => {
      const sessions = storage.accounts.loginSessions;
      const first = await sessions.create({ userId: ada.id, tokenHash: "a".repeat(64), csrfToken: "csrf-1", expiresAt: NOW + HOUR });
      assert.deepEqual(first, { id: first.id, userId: ada.id, csrfToken: "csrf-1", dateCreated: first.dateCreated, expiresAt: NOW + HOUR });
      assert.deepEqual(await sessions.getValid("a".repeat(64), NOW), first);
      assert.deepEqual(await sessions.getValid("a".repeat(64), NOW + HOUR - 1), first);
      assert.equal(await sessions.getValid("a".repeat(64), NOW + HOUR), null);
      assert.equal(await sessions.getValid("f".repeat(64), NOW), null);

      const second = await sessions.create({ userId: ada.id, tokenHash: "b".repeat(64), csrfToken: "csrf-2", expiresAt: NOW + 2 * HOUR });
      await sessions.create({ userId: ada.id, tokenHash: "c".repeat(64), csrfToken: "csrf-3", expiresAt: NOW + 2 * HOUR });
      const bobs = await sessions.create({ userId: bob.id, tokenHash: "d".repeat(64), csrfToken: "csrf-4", expiresAt: NOW - 1 });
      assert.equal(await sessions.getValid("d".repeat(64), NOW), null);
      await assert.rejects(
        sessions.create({ userId: bob.id, tokenHash: "a".repeat(64), csrfToken: "x", expiresAt: NOW + HOUR }),
        isAppError("conflict", /session/),
      );

      assert.equal(await sessions.deleteForUser(ada.id, second.id), 2);
      assert.equal(await sessions.getValid("a".repeat(64), NOW), null);
      assert.equal(await sessions.getValid("c".repeat(64), NOW), null);
      assert.deepEqual(await sessions.getValid("b".repeat(64), NOW), second);

      assert.equal(await sessions.deleteExpired(NOW), 1);
      assert.equal(await sessions.deleteExpired(NOW), 0);
      assert.equal(await sessions.getValid("d".repeat(64), bobs.expiresAt - 1), null);

      await sessions.delete(second.id);
      assert.equal(await sessions.getValid("b".repeat(64), NOW), null);
      assert.equal(await sessions.deleteForUser(ada.id), 0);
    });

    it("keeps API tokens per user: only the owner revokes one, and a revoked token is gone", async () => {
      const { tokens } = storage.accounts;
      const adas = await tokens.create({ userId: ada.id, name: "CI", tokenHash: "1".repeat(64), tokenLastChars: "ab12", scopes: ["project:read", "project:releases"] });
      assert.deepEqual(adas, {
        id: adas.id, userId: ada.id, name: "CI", tokenLastChars: "ab12", scopes: ["project:read", "project:releases"],
        dateCreated: adas.dateCreated, lastUsed: null,
      });
      const bobs = await tokens.create({ userId: bob.id, name: "Bob's", tokenHash: "2".repeat(64), tokenLastChars: "cd34", scopes: [] });
      assert.deepEqual(await tokens.getByHash("1".repeat(64)), adas);
      assert.equal(await tokens.getByHash("3".repeat(64)), null);
      assert.deepEqual(await tokens.listForUser(ada.id), [adas]);
      assert.deepEqual(await tokens.listForUser(bob.id), [bobs]);

      assert.equal(await tokens.revoke(bob.id, adas.id), false);
      assert.deepEqual(await tokens.getByHash("1".repeat(64)), adas);
      assert.equal(await tokens.revoke(ada.id, "999999"), false);

      await tokens.recordUse(adas.id, NOW);
      assert.deepEqual(await tokens.getByHash("1".repeat(64)), { ...adas, lastUsed: NOW });

      assert.equal(await tokens.revoke(ada.id, adas.id), true);
      assert.equal(await tokens.getByHash("1".repeat(64)), null);
      assert.deepEqual(await tokens.listForUser(ada.id), []);
      assert.equal(await tokens.revoke(ada.id, adas.id), false);
      assert.deepEqual(await tokens.getByHash("2".repeat(64)), bobs);
    });

    it("adds members once per organisation, with their user, and keeps organisations apart", async () => {
      const { members } = storage.accounts;
      const owner = await members.add({ organizationId: acme.id, userId: ada.id, role: "owner" });
      assert.deepEqual(owner, { id: owner.id, organizationId: acme.id, userId: ada.id, role: "owner", dateCreated: owner.dateCreated });
      const viewer = await members.add({ organizationId: acme.id, userId: bob.id, role: "viewer" });
      const elsewhere = await members.add({ organizationId: other.id, userId: bob.id, role: "admin" });
      await assert.rejects(members.add({ organizationId: acme.id, userId: ada.id, role: "member" }), isAppError("conflict", /already a member/));
      await assert.rejects(members.add({ organizationId: acme.id, userId: "999999", role: "member" }), isAppError("not_found", /999999/));

      assert.deepEqual(await members.get(acme.id, ada.id), owner);
      assert.deepEqual(await members.getById(viewer.id), viewer);
      assert.equal(await members.get(other.id, ada.id), null);
      assert.equal(await members.getById("999999"), null);
      assert.deepEqual(await members.listByOrganization(acme.id), [{ ...owner, user: ada }, { ...viewer, user: bob }]);
      assert.deepEqual(await members.listByOrganization(other.id), [{ ...elsewhere, user: bob }]);
      assert.deepEqual(await members.listForUser(bob.id), [viewer, elsewhere]);
      assert.equal(await members.countOwners(acme.id), 1);
      assert.equal(await members.countOwners(other.id), 0);

      assert.deepEqual(await members.setRole(viewer.id, "member"), { ...viewer, role: "member" });
      assert.equal(await members.setRole("999999", "member"), null);
      assert.deepEqual(await members.get(other.id, bob.id), elsewhere);

      assert.equal(await members.remove(viewer.id), "removed");
      assert.equal(await members.remove(viewer.id), "not_found");
      assert.equal(await members.getById(viewer.id), null);
      assert.deepEqual(await members.listForUser(bob.id), [elsewhere]);
    });

    it("never leaves an organisation without an owner, even when owners demote and remove each other at once", async () => {
      const { members, users } = storage.accounts;
      const first = await members.add({ organizationId: acme.id, userId: ada.id, role: "owner" });
      assert.equal(await members.setRole(first.id, "admin"), "last_owner");
      assert.equal(await members.remove(first.id), "last_owner");
      assert.deepEqual(await members.getById(first.id), first, "a refused change changes nothing");
      assert.deepEqual(await members.setRole(first.id, "owner"), first, "an owner staying owner is no loss");
      const second = await members.add({ organizationId: acme.id, userId: bob.id, role: "owner" });
      const cy = await users.create({ email: "cy@example.com", name: "Cy", passwordHash: "$argon2id$cy" });
      const third = await members.add({ organizationId: acme.id, userId: cy.id, role: "owner" });
      // Another organisation's owner does not count for this one.
      await members.add({ organizationId: other.id, userId: ada.id, role: "owner" });
      const results = await Promise.all([members.setRole(first.id, "admin"), members.remove(second.id), members.setRole(third.id, "member")]);
      assert.equal(results.filter((result) => result === "last_owner").length, 1, JSON.stringify(results));
      assert.equal(await members.countOwners(acme.id), 1);
      assert.equal(await members.countOwners(other.id), 1);
    });

    it("transfers ownership in one step, only from an owner and only within one organisation", async () => {
      const { members } = storage.accounts;
      const owner = await members.add({ organizationId: acme.id, userId: ada.id, role: "owner" });
      const heir = await members.add({ organizationId: acme.id, userId: bob.id, role: "member" });
      const stranger = await members.add({ organizationId: other.id, userId: ada.id, role: "member" });
      assert.equal(await members.transferOwnership(owner.id, heir.id), true);
      assert.deepEqual(await members.getById(heir.id), { ...heir, role: "owner" });
      assert.deepEqual(await members.getById(owner.id), { ...owner, role: "admin" });
      assert.equal(await members.countOwners(acme.id), 1);

      assert.equal(await members.transferOwnership(owner.id, heir.id), false, "no longer an owner");
      assert.equal(await members.transferOwnership(heir.id, stranger.id), false, "different organisations");
      assert.equal(await members.transferOwnership(heir.id, "999999"), false);
      assert.equal(await members.transferOwnership(heir.id, heir.id), false);
      assert.deepEqual(await members.getById(heir.id), { ...heir, role: "owner" });
      assert.deepEqual(await members.getById(owner.id), { ...owner, role: "admin" });
      assert.deepEqual(await members.getById(stranger.id), stranger);
    });

    describe("teams", () => {
      let adaMember: Member;
      let bobMember: Member;

      beforeEach(async () => {
        adaMember = await storage.accounts.members.add({ organizationId: acme.id, userId: ada.id, role: "member" });
        bobMember = await storage.accounts.members.add({ organizationId: acme.id, userId: bob.id, role: "member" });
      });

      it("creates teams with slugs unique per organisation", async () => {
        const { teams } = storage.accounts;
        const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
        assert.deepEqual(backend, { id: backend.id, organizationId: acme.id, slug: "backend", name: "Backend", dateCreated: backend.dateCreated });
        const frontend = await teams.create({ organizationId: acme.id, slug: "frontend", name: "Frontend" });
        const otherBackend = await teams.create({ organizationId: other.id, slug: "backend", name: "Their backend" });
        await assert.rejects(teams.create({ organizationId: acme.id, slug: "backend", name: "Again" }), isAppError("conflict", /backend/));
        assert.deepEqual(await teams.getById(backend.id), backend);
        assert.deepEqual(await teams.getBySlug(acme.id, "backend"), backend);
        assert.deepEqual(await teams.getBySlug(other.id, "backend"), otherBackend);
        assert.equal(await teams.getBySlug(other.id, "frontend"), null);
        assert.equal(await teams.getById("999999"), null);
        assert.deepEqual(await teams.listByOrganization(acme.id), [backend, frontend]);
        assert.deepEqual(await teams.listByOrganization(other.id), [otherBackend]);
      });

      it("links members and projects idempotently; a member sees only their teams' projects", async () => {
        const { teams } = storage.accounts;
        const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
        const frontend = await teams.create({ organizationId: acme.id, slug: "frontend", name: "Frontend" });
        await teams.addMember(backend.id, adaMember.id);
        await teams.addMember(backend.id, adaMember.id);
        await teams.addMember(frontend.id, bobMember.id);
        await teams.addProject(backend.id, api.id);
        await teams.addProject(backend.id, api.id);
        await teams.addProject(frontend.id, web.id);
        await teams.addProject(frontend.id, api.id);

        assert.deepEqual(await teams.listMembers(backend.id), [{ ...adaMember, user: ada }]);
        assert.deepEqual(await teams.listForMember(adaMember.id), [backend]);
        assert.deepEqual(await teams.listProjectIds(backend.id), [api.id]);
        assert.deepEqual(await teams.listProjectIds(frontend.id), [web.id, api.id]);
        assert.deepEqual(await teams.listForProject(api.id), [backend, frontend]);
        assert.deepEqual(await teams.listForProject(web.id), [frontend]);
        assert.deepEqual(await teams.projectIdsForMember(adaMember.id), [api.id]);
        assert.deepEqual(await teams.projectIdsForMember(bobMember.id), [web.id, api.id]);
        assert.deepEqual(await teams.projectIdsForMember("999999"), []);

        await teams.removeProject(frontend.id, api.id);
        assert.deepEqual(await teams.projectIdsForMember(bobMember.id), [web.id]);
        await teams.removeMember(frontend.id, bobMember.id);
        assert.deepEqual(await teams.projectIdsForMember(bobMember.id), []);
        assert.deepEqual(await teams.listMembers(frontend.id), []);
        assert.deepEqual(await teams.listForProject(api.id), [backend]);
      });

      it("never links a team to a member or project of another organisation", async () => {
        const { teams, members } = storage.accounts;
        const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
        const theirs = await teams.create({ organizationId: other.id, slug: "theirs", name: "Theirs" });
        const theirProject = await storage.projects.create({ organizationId: other.id, slug: "app", name: "App", platform: null });
        const outsider = await members.add({ organizationId: other.id, userId: ada.id, role: "owner" });
        await assert.rejects(teams.addMember(backend.id, outsider.id), isAppError("not_found", /organisation/));
        await assert.rejects(teams.addMember(theirs.id, adaMember.id), isAppError("not_found", /organisation/));
        await assert.rejects(teams.addProject(backend.id, theirProject.id), isAppError("not_found", /organisation/));
        await assert.rejects(teams.addProject("999999", web.id), isAppError("not_found", /organisation/));
        assert.deepEqual(await teams.listMembers(backend.id), []);
        assert.deepEqual(await teams.listProjectIds(backend.id), []);
        await teams.addProject(theirs.id, theirProject.id);
        await teams.addMember(theirs.id, outsider.id);
        assert.deepEqual(await teams.projectIdsForMember(outsider.id), [theirProject.id]);
        assert.deepEqual(await teams.projectIdsForMember(adaMember.id), []);
      });

      it("removing a member removes their team memberships", async () => {
        const { teams, members } = storage.accounts;
        const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
        await teams.addMember(backend.id, adaMember.id);
        await teams.addMember(backend.id, bobMember.id);
        await teams.addProject(backend.id, web.id);
        await members.remove(adaMember.id);
        assert.deepEqual(await teams.listMembers(backend.id), [{ ...bobMember, user: bob }]);
        assert.deepEqual(await teams.listForMember(adaMember.id), []);
        assert.deepEqual(await teams.projectIdsForMember(adaMember.id), []);
        // Added again, the person starts without teams.
        const again = await members.add({ organizationId: acme.id, userId: ada.id, role: "viewer" });
        assert.notEqual(again.id, adaMember.id);
        assert.deepEqual(await teams.listForMember(again.id), []);
        assert.deepEqual(await teams.projectIdsForMember(again.id), []);
      });

      it("reads every team's member and project ids of one organisation at once, teams without any included", async () => {
        const { teams, members } = storage.accounts;
        const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
        const frontend = await teams.create({ organizationId: acme.id, slug: "frontend", name: "Frontend" });
        const empty = await teams.create({ organizationId: acme.id, slug: "empty", name: "Empty" });
        const theirs = await teams.create({ organizationId: other.id, slug: "theirs", name: "Theirs" });
        const theirProject = await storage.projects.create({ organizationId: other.id, slug: "app", name: "App", platform: null });
        const outsider = await members.add({ organizationId: other.id, userId: bob.id, role: "owner" });
        await teams.addMember(backend.id, bobMember.id);
        await teams.addMember(backend.id, adaMember.id);
        await teams.addMember(frontend.id, bobMember.id);
        await teams.addProject(backend.id, api.id);
        await teams.addProject(frontend.id, api.id);
        await teams.addProject(frontend.id, web.id);
        await teams.addMember(theirs.id, outsider.id);
        await teams.addProject(theirs.id, theirProject.id);

        const memberIds = await teams.memberIdsByTeam(acme.id);
        assert.deepEqual(
          [...memberIds.entries()].sort(([a], [b]) => Number(a) - Number(b)),
          [
            [backend.id, [adaMember.id, bobMember.id]],
            [frontend.id, [bobMember.id]],
            [empty.id, []],
          ],
        );
        const projectIds = await teams.projectIdsByTeam(acme.id);
        assert.deepEqual(
          [...projectIds.entries()].sort(([a], [b]) => Number(a) - Number(b)),
          [
            [backend.id, [api.id]],
            [frontend.id, [web.id, api.id]],
            [empty.id, []],
          ],
        );
        // The same as asking team by team.
        for (const team of [backend, frontend, empty]) {
          assert.deepEqual(memberIds.get(team.id), (await teams.listMembers(team.id)).map((member) => member.id).sort((a, b) => Number(a) - Number(b)));
          assert.deepEqual(projectIds.get(team.id), await teams.listProjectIds(team.id));
        }
        assert.deepEqual([...(await teams.memberIdsByTeam(other.id)).entries()], [[theirs.id, [outsider.id]]]);
        assert.deepEqual([...(await teams.projectIdsByTeam(other.id)).entries()], [[theirs.id, [theirProject.id]]]);
        assert.deepEqual([...(await teams.memberIdsByTeam("999999")).entries()], []);
        assert.deepEqual([...(await teams.projectIdsByTeam("not-an-id")).entries()], []);

        await members.remove(bobMember.id);
        await teams.removeProject(frontend.id, api.id);
        assert.deepEqual((await teams.memberIdsByTeam(acme.id)).get(frontend.id), []);
        assert.deepEqual((await teams.memberIdsByTeam(acme.id)).get(backend.id), [adaMember.id]);
        assert.deepEqual((await teams.projectIdsByTeam(acme.id)).get(frontend.id), [web.id]);
      });
    });

    it("keeps invites pending until accepted once or expired", async () => {
      const { invites, teams } = storage.accounts;
      const backend = await teams.create({ organizationId: acme.id, slug: "backend", name: "Backend" });
      const theirs = await teams.create({ organizationId: other.id, slug: "theirs", name: "Theirs" });
      const invite = await invites.create({
        organizationId: acme.id, role: "member", teamIds: [backend.id], email: "New@Example.com", invitedByUserId: ada.id,
        tokenHash: "e".repeat(64), expiresAt: NOW + HOUR,
      });
      assert.deepEqual(invite, {
        id: invite.id, organizationId: acme.id, role: "member", teamIds: [backend.id], email: "new@example.com", invitedByUserId: ada.id,
        dateCreated: invite.dateCreated, expiresAt: NOW + HOUR, acceptedAt: null,
      });
      const open = await invites.create({
        organizationId: acme.id, role: "viewer", teamIds: [], email: null, invitedByUserId: null, tokenHash: "f".repeat(64), expiresAt: NOW + 2 * HOUR,
      });
      const expired = await invites.create({
        organizationId: acme.id, role: "viewer", teamIds: [], email: null, invitedByUserId: null, tokenHash: "0".repeat(64), expiresAt: NOW,
      });
      await invites.create({
        organizationId: other.id, role: "admin", teamIds: [theirs.id], email: null, invitedByUserId: bob.id, tokenHash: "9".repeat(64), expiresAt: NOW + HOUR,
      });
      await assert.rejects(
        invites.create({ organizationId: acme.id, role: "member", teamIds: [theirs.id], email: null, invitedByUserId: null, tokenHash: "8".repeat(64), expiresAt: NOW + HOUR }),
        isAppError("not_found", /team/),
      );
      assert.deepEqual(await invites.getByTokenHash("e".repeat(64)), invite);
      assert.deepEqual(await invites.getByTokenHash("0".repeat(64)), expired);
      assert.equal(await invites.getByTokenHash("7".repeat(64)), null);
      assert.deepEqual(await invites.listPending(acme.id, NOW), [invite, open]);

      assert.equal(await invites.markAccepted(invite.id, NOW + 1), true);
      assert.equal(await invites.markAccepted(invite.id, NOW + 2), false);
      assert.deepEqual(await invites.getByTokenHash("e".repeat(64)), { ...invite, acceptedAt: NOW + 1 });
      assert.deepEqual(await invites.listPending(acme.id, NOW), [open]);
      assert.equal(await invites.markAccepted("999999", NOW), false);

      // Two acceptances at once: exactly one wins.
      const raced = await Promise.all([invites.markAccepted(open.id, NOW + 3), invites.markAccepted(open.id, NOW + 4)]);
      assert.deepEqual(raced.sort(), [false, true]);
      assert.deepEqual(await invites.listPending(acme.id, NOW), []);

      // A claim given back (what it was for failed) opens the invite again; only the claim made at that time is released.
      const claimedAt = (await invites.getByTokenHash("f".repeat(64)))!.acceptedAt!;
      assert.equal(await invites.releaseAcceptance(open.id, claimedAt + 1), false);
      assert.equal(await invites.releaseAcceptance(open.id, claimedAt), true);
      assert.equal(await invites.releaseAcceptance(open.id, claimedAt), false);
      assert.deepEqual(await invites.listPending(acme.id, NOW), [open]);
      assert.equal(await invites.releaseAcceptance("999999", claimedAt), false);
      assert.equal(await invites.markAccepted(open.id, NOW + 5), true);
      assert.deepEqual(await invites.getByTokenHash("f".repeat(64)), { ...open, acceptedAt: NOW + 5 });

      await invites.delete(expired.id);
      assert.equal(await invites.getByTokenHash("0".repeat(64)), null);
    });

    it("lists the audit log newest first per organisation, a page at a time", async () => {
      const { audit } = storage.accounts;
      const entry = await audit.append({
        organizationId: acme.id, actorUserId: ada.id, actorLabel: "ada@example.com", event: "member.invite", targetType: "invite",
        targetId: "17", data: { email: "new@example.com", teams: ["backend"] }, ipAddress: "203.0.113.9", dateCreated: NOW,
      });
      assert.deepEqual(entry, {
        id: entry.id, organizationId: acme.id, actorUserId: ada.id, actorLabel: "ada@example.com", event: "member.invite",
        targetType: "invite", targetId: "17", data: { email: "new@example.com", teams: ["backend"] }, ipAddress: "203.0.113.9", dateCreated: NOW,
      });
      const later = [];
      for (let i = 1; i <= 4; i++) {
        later.push(await audit.append({
          organizationId: acme.id, actorUserId: null, actorLabel: "cli", event: "project.create", targetType: "project", targetId: null,
          data: { n: i }, ipAddress: null, dateCreated: NOW + i * 1000,
        }));
      }
      // Appended last but dated first: it lists last.
      const backdated = await audit.append({
        organizationId: acme.id, actorUserId: null, actorLabel: "system", event: "key.create", targetType: "key", targetId: "3",
        data: {}, ipAddress: null, dateCreated: NOW - 1000,
      });
      const theirs = await audit.append({
        organizationId: other.id, actorUserId: bob.id, actorLabel: "bob@example.com", event: "token.create", targetType: "token",
        targetId: "1", data: {}, ipAddress: null,
      });
      assert.ok(Math.abs(theirs.dateCreated - Date.now()) < 60_000);

      const first = await audit.list(acme.id, 2);
      assert.deepEqual(first, [later[3], later[2]]);
      const second = await audit.list(acme.id, 2, first[1]!.id);
      assert.deepEqual(second, [later[1], later[0]]);
      const third = await audit.list(acme.id, 2, second[1]!.id);
      assert.deepEqual(third, [entry, backdated]);
      assert.deepEqual(await audit.list(acme.id, 2, backdated.id), []);
      assert.deepEqual(await audit.list(other.id, 10), [theirs]);
      // A cursor from another organisation or no entry at all gives nothing of this one.
      assert.deepEqual(await audit.list(acme.id, 10, theirs.id), []);
      assert.deepEqual(await audit.list(acme.id, 10, "999999"), []);
    });

    it("counts failed logins per key within the window and forgets old ones", async () => {
      const throttle = storage.accounts.loginThrottle;
      for (const at of [NOW - 20 * 60_000, NOW - 10 * 60_000, NOW - 5 * 60_000, NOW]) await throttle.recordFailure("email:ada@example.com", at);
      await throttle.recordFailure("ip:203.0.113.9", NOW - 60_000);
      assert.equal(await throttle.countSince("email:ada@example.com", NOW - 15 * 60_000), 3);
      assert.equal(await throttle.countSince("email:ada@example.com", NOW - 10 * 60_000), 3);
      assert.equal(await throttle.countSince("email:ada@example.com", NOW + 1), 0);
      assert.equal(await throttle.oldestSince("email:ada@example.com", NOW - 15 * 60_000), NOW - 10 * 60_000);
      assert.equal(await throttle.oldestSince("email:bob@example.com", 0), null);
      assert.equal(await throttle.countSince("ip:203.0.113.9", 0), 1);

      assert.equal(await throttle.deleteBefore(NOW - 5 * 60_000), 2);
      assert.equal(await throttle.countSince("email:ada@example.com", 0), 2);
      assert.equal(await throttle.deleteBefore(NOW - 5 * 60_000), 0);

      await throttle.clear("email:ada@example.com");
      assert.equal(await throttle.countSince("email:ada@example.com", 0), 0);
      assert.equal(await throttle.countSince("ip:203.0.113.9", 0), 1);
    });

    it("forgets exactly one failure of a key at a time", async () => {
      const throttle = storage.accounts.loginThrottle;
      await throttle.recordFailure("ip:198.51.100.4", NOW);
      await throttle.recordFailure("ip:198.51.100.4", NOW);
      await throttle.recordFailure("ip:198.51.100.4", NOW - 1);
      await throttle.recordFailure("ip:198.51.100.5", NOW);
      await throttle.forgetOne("ip:198.51.100.4", NOW);
      assert.equal(await throttle.countSince("ip:198.51.100.4", 0), 2);
      assert.equal(await throttle.oldestSince("ip:198.51.100.4", 0), NOW - 1);
      await throttle.forgetOne("ip:198.51.100.4", NOW + 5);
      assert.equal(await throttle.countSince("ip:198.51.100.4", 0), 2, "nothing at that time: nothing forgotten");
      assert.equal(await throttle.countSince("ip:198.51.100.5", 0), 1, "other keys untouched");
    });
  });
}
