/**
 * Membership: invitations by link, roles, removal and ownership transfer. The rules, as in Sentry:
 * nobody grants, changes or removes a role above their own; only an owner makes owners; an
 * organisation always keeps at least one owner (storage's conditional statements make that check
 * and the change one step, so concurrent changes cannot race past it).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { parseInput } from "../parse-input";
import { isRole, ROLE_RANK, type Role } from "../../auth/scopes";
import { digestOf, newSecret } from "../../auth/secrets";
import type { Invite, Member, MemberWithUser, Organization, User } from "../../model";
import type { Storage } from "../../storage/types";
import { requireScope, type Access } from "./access";
import type { Actor } from "./actor";
import { recordAudit } from "./audit";
import { prepareUser, type NewUserInput } from "./users";

const INVITE_TTL_MS = 7 * 86_400_000;

export const LAST_OWNER_MESSAGE = "The organization must keep at least one owner: transfer ownership first";

const inviteInput = z.object({
  role: z.string().refine(isRole, "role: must be owner, admin, member or viewer"),
  teamIds: z.array(z.string()).default([]),
  email: z.string().trim().toLowerCase().max(254).email("email: must be an email address").nullable().default(null),
});

function mayManageRole(access: Access, role: Role): void {
  if (ROLE_RANK[role] > ROLE_RANK[access.role]) {
    throw new AppError("forbidden", `You cannot grant or change the ${role} role: it is above your own (${access.role})`);
  }
  if (role === "owner") requireScope(access, "member:admin");
}

export async function listMembers(storage: Storage, access: Access): Promise<MemberWithUser[]> {
  requireScope(access, "member:read");
  return storage.accounts.members.listByOrganization(access.organization.id);
}

/** Creates an invite link; the returned secret goes in the URL `/invite/<secret>` and is not stored. */
export async function createInvite(
  storage: Storage,
  access: Access,
  actor: Actor,
  input: z.input<typeof inviteInput>,
  now: number,
): Promise<{ secret: string; invite: Invite }> {
  requireScope(access, "member:write");
  const data = parseInput(inviteInput, input);
  const role = data.role as Role;
  mayManageRole(access, role);
  for (const teamId of data.teamIds) {
    const team = await storage.accounts.teams.getById(teamId);
    if (!team || team.organizationId !== access.organization.id) throw new AppError("bad_request", `team ${teamId} does not exist in this organization`);
  }
  const secret = newSecret();
  const invite = await storage.accounts.invites.create({
    organizationId: access.organization.id,
    role,
    teamIds: data.teamIds,
    email: data.email,
    invitedByUserId: actor.userId,
    tokenHash: digestOf(secret),
    expiresAt: now + INVITE_TTL_MS,
  });
  await recordAudit(storage, actor, access.organization.id, "member.invite", { type: "invite", id: invite.id }, { role, email: invite.email });
  return { secret, invite };
}

export async function cancelInvite(storage: Storage, access: Access, actor: Actor, inviteId: string, now: number): Promise<void> {
  requireScope(access, "member:write");
  const invite = (await storage.accounts.invites.listPending(access.organization.id, now)).find((candidate) => candidate.id === inviteId);
  if (!invite) throw new AppError("not_found", "invite not found");
  mayManageRole(access, invite.role);
  await storage.accounts.invites.delete(invite.id);
  await recordAudit(storage, actor, access.organization.id, "member.invite_cancel", { type: "invite", id: invite.id }, { role: invite.role });
}

const ALREADY_USED = "This invite link has already been used.";

/** The invite behind a link, if it can still be used, with its organisation. */
export async function openInvite(storage: Storage, secret: string, now: number): Promise<{ invite: Invite; organization: Organization }> {
  const invite = /^[0-9a-f]{64}$/.test(secret) ? await storage.accounts.invites.getByTokenHash(digestOf(secret)) : null;
  if (!invite) throw new AppError("not_found", "This invite link is not valid.");
  if (invite.acceptedAt !== null) throw new AppError("conflict", ALREADY_USED);
  if (invite.expiresAt <= now) throw new AppError("conflict", "This invite link has expired; ask for a new one.");
  const organization = await storage.organizations.getById(invite.organizationId);
  if (!organization) throw new AppError("not_found", "This invite link is not valid.");
  return { invite, organization };
}

/**
 * Claims the invite for one person: a single conditional UPDATE, so of any number of concurrent
 * claims (from any processes) exactly one wins; the others are refused before they create anything.
 */
async function claim(storage: Storage, invite: Invite, now: number): Promise<void> {
  if (!(await storage.accounts.invites.markAccepted(invite.id, now))) throw new AppError("conflict", ALREADY_USED);
}

/** Runs `step` under a claim; if it fails, the claim is given back so the link still works. */
async function orRelease<T>(storage: Storage, invite: Invite, claimedAt: number, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await storage.accounts.invites.releaseAcceptance(invite.id, claimedAt);
    throw error;
  }
}

/** Adds the member the claimed invite describes, with its teams, and audits it. */
async function join(storage: Storage, invite: Invite, organization: Organization, user: User, ipAddress: string | null): Promise<Member> {
  const member = await storage.accounts.members.add({ organizationId: organization.id, userId: user.id, role: invite.role });
  for (const teamId of invite.teamIds) await storage.accounts.teams.addMember(teamId, member.id);
  await recordAudit(
    storage,
    { userId: user.id, label: user.email, ipAddress },
    organization.id,
    "member.accept_invite",
    { type: "member", id: member.id },
    { role: invite.role, inviteId: invite.id },
  );
  return member;
}

/** The signed-in person (or one who just signed up) joins through the link. */
export async function acceptInvite(storage: Storage, secret: string, user: User, ipAddress: string | null, now: number): Promise<Member> {
  const { invite, organization } = await openInvite(storage, secret, now);
  if (invite.email && invite.email !== user.email) {
    throw new AppError("forbidden", `This invite is for ${invite.email}; you are signed in as ${user.email}.`);
  }
  if (await storage.accounts.members.get(organization.id, user.id)) {
    throw new AppError("conflict", `You are already a member of ${organization.name}.`);
  }
  await claim(storage, invite, now);
  return orRelease(storage, invite, now, () => join(storage, invite, organization, user, ipAddress));
}

/**
 * Someone without an account follows the link: the account is created and joins in one step. The
 * invite is claimed first and only the claimant creates an account, so parallel sign-ups with one
 * link make one account, not one member and many accounts of no organisation. Everything that can
 * be checked (input, email free, password) is checked and hashed before the claim; if creating the
 * account still fails (the email was taken meanwhile), the claim is released. No transaction: on
 * SQLite none may run (ADR 0011), and the claim makes one unnecessary on either engine.
 */
export async function signUpWithInvite(
  storage: Storage,
  secret: string,
  input: NewUserInput,
  ipAddress: string | null,
  now: number,
): Promise<{ user: User; member: Member }> {
  const { invite, organization } = await openInvite(storage, secret, now);
  if (invite.email && invite.email !== input.email.trim().toLowerCase()) {
    throw new AppError("forbidden", `This invite is for ${invite.email}.`);
  }
  const prepared = await prepareUser(storage, input);
  await claim(storage, invite, now);
  return orRelease(storage, invite, now, async () => {
    const user = await storage.accounts.users.create(prepared);
    // A new account cannot already be a member: only a failing database gets past this point with an account and no membership.
    const member = await join(storage, invite, organization, user, ipAddress);
    return { user, member };
  });
}

async function memberOf(storage: Storage, access: Access, memberId: string): Promise<Member> {
  const member = await storage.accounts.members.getById(memberId);
  if (!member || member.organizationId !== access.organization.id) throw new AppError("not_found", "member not found");
  return member;
}

export async function changeRole(storage: Storage, access: Access, actor: Actor, memberId: string, role: string): Promise<Member> {
  requireScope(access, "member:write");
  if (!isRole(role)) throw new AppError("bad_request", "role: must be owner, admin, member or viewer");
  const member = await memberOf(storage, access, memberId);
  mayManageRole(access, member.role);
  mayManageRole(access, role);
  // The check and the change are one atomic step in storage: two owners demoting each other at once
  // cannot both succeed.
  const updated = await storage.accounts.members.setRole(member.id, role);
  if (updated === "last_owner") throw new AppError("conflict", LAST_OWNER_MESSAGE);
  if (!updated) throw new AppError("not_found", "member not found");
  await recordAudit(storage, actor, access.organization.id, "member.role_change", { type: "member", id: member.id }, { from: member.role, to: role });
  return updated;
}

export async function removeMember(storage: Storage, access: Access, actor: Actor, memberId: string): Promise<void> {
  const member = await memberOf(storage, access, memberId);
  // Leaving is allowed to everyone; removing somebody else needs member:write and a role not below theirs.
  if (member.id !== access.member.id) {
    requireScope(access, "member:write");
    mayManageRole(access, member.role);
  }
  const removed = await storage.accounts.members.remove(member.id);
  if (removed === "last_owner") throw new AppError("conflict", LAST_OWNER_MESSAGE);
  if (removed === "not_found") throw new AppError("not_found", "member not found");
  await recordAudit(storage, actor, access.organization.id, "member.remove", { type: "member", id: member.id }, { role: member.role, userId: member.userId });
}

/** The owner hands ownership to another member and becomes an admin. */
export async function transferOwnership(storage: Storage, access: Access, actor: Actor, memberId: string): Promise<void> {
  requireScope(access, "org:admin");
  if (access.role !== "owner") throw new AppError("forbidden", "Only an owner can transfer ownership");
  const target = await memberOf(storage, access, memberId);
  if (target.id === access.member.id) throw new AppError("bad_request", "You already own this organization");
  // Only while the giver is still an owner (checked again in the same statement as the change).
  if (!(await storage.accounts.members.transferOwnership(access.member.id, target.id))) {
    throw new AppError("conflict", "Ownership was not transferred: you are no longer an owner, or the member has left; reload and try again");
  }
  await recordAudit(storage, actor, access.organization.id, "member.transfer_ownership", { type: "member", id: target.id }, { from: access.member.id });
}

/** Invitations not yet accepted and not expired at `now`; only for those who may invite. */
export async function listPendingInvites(storage: Storage, access: Access, now: number): Promise<Invite[]> {
  requireScope(access, "member:write");
  return storage.accounts.invites.listPending(access.organization.id, now);
}
