/** People: creating accounts (the first one at setup), and passwords. */
import { z } from "zod";
import { AppError } from "../../errors";
import { parseInput } from "../parse-input";
import { hashPassword, passwordProblem } from "../../auth/password";
import { confirmPassword } from "./login";
import type { Role } from "../../auth/scopes";
import type { Member, Organization, User } from "../../model";
import type { Storage } from "../../storage/types";
import { DEFAULT_TEAM_SLUG } from "../projects/ensure-defaults";
import { actorOf, CLI_ACTOR, SYSTEM_ACTOR, type Actor } from "./actor";
import { recordAudit } from "./audit";

export const newUserInput = z.object({
  email: z.string().trim().toLowerCase().max(254).email("email: must be an email address"),
  name: z.string().trim().max(100).default(""),
  password: z.string(),
});
export type NewUserInput = z.input<typeof newUserInput>;

function parseNewUser(input: NewUserInput): z.output<typeof newUserInput> {
  const data = parseInput(newUserInput, input);
  const problem = passwordProblem(data.password);
  if (problem) throw new AppError("bad_request", problem);
  return { ...data, name: data.name || data.email.split("@")[0]! };
}

/** A new account's row, checked (email free, password acceptable) and hashed, not yet stored. */
export interface PreparedUser {
  email: string;
  name: string;
  passwordHash: string;
}

export async function prepareUser(storage: Storage, input: NewUserInput): Promise<PreparedUser> {
  const { email, name, password } = parseNewUser(input);
  if (await storage.accounts.users.getByEmail(email)) throw new AppError("conflict", `a user with the email ${email} already exists`);
  return { email, name, passwordHash: await hashPassword(password) };
}

export async function createUser(storage: Storage, input: NewUserInput): Promise<User> {
  return storage.accounts.users.create(await prepareUser(storage, input));
}

/** Adds the user to the organisation with a role; members also join the default team when there is one. */
export async function addMember(storage: Storage, actor: Actor, organization: Organization, user: User, role: Role): Promise<Member> {
  const member = await storage.accounts.members.add({ organizationId: organization.id, userId: user.id, role });
  const team = await storage.accounts.teams.getBySlug(organization.id, DEFAULT_TEAM_SLUG);
  if (team) await storage.accounts.teams.addMember(team.id, member.id);
  await recordAudit(storage, actor, organization.id, "member.add", { type: "member", id: member.id }, { email: user.email, role });
  return member;
}

export async function needsSetup(storage: Storage): Promise<boolean> {
  return (await storage.accounts.users.count()) === 0;
}

/**
 * First run: the owner account of the default organisation, from the setup page, from
 * PERISCOPE_ADMIN_EMAIL/PASSWORD or from `periscope user create`. Refused once any user exists, so the setup page cannot be used to
 * take over an installed server.
 */
export async function createOwner(
  storage: Storage,
  organization: Organization,
  input: NewUserInput,
  origin: { via: "setup"; ipAddress: string | null } | { via: "environment" } | { via: "cli" },
): Promise<User> {
  const alreadyDone = () => new AppError("conflict", "setup is already complete: an account exists; sign in instead");
  if (!(await needsSetup(storage))) throw alreadyDone();
  const { email, name, password } = parseNewUser(input);
  const user = await storage.accounts.users.createFirst({ email, name, passwordHash: await hashPassword(password) });
  if (!user) throw alreadyDone();
  const actor = origin.via === "setup" ? actorOf(user, origin.ipAddress) : origin.via === "cli" ? CLI_ACTOR : SYSTEM_ACTOR;
  await addMember(storage, actor, organization, user, "owner");
  return user;
}

/** The account with this email (any case); "not found" naming the address otherwise. */
export async function requireUserByEmail(storage: Storage, email: string): Promise<User> {
  const normal = email.trim().toLowerCase();
  const user = await storage.accounts.users.getByEmail(normal);
  if (!user) throw new AppError("not_found", `no user with the email ${normal}`);
  return user;
}

/** Sets a new password and ends every session of the person (command line: a forgotten password). */
export async function resetPassword(storage: Storage, email: string, password: string): Promise<User> {
  const problem = passwordProblem(password);
  if (problem) throw new AppError("bad_request", problem);
  const user = await requireUserByEmail(storage, email);
  await storage.accounts.users.setPasswordHash(user.id, await hashPassword(password));
  await storage.accounts.loginSessions.deleteForUser(user.id);
  return user;
}

/** The person changes their own password; their other sessions end, this one stays. */
export async function changePassword(
  storage: Storage,
  user: User,
  input: { currentPassword: string; newPassword: string; keepSessionId?: string; now?: number },
): Promise<void> {
  if (!(await confirmPassword(storage, user, input.currentPassword, input.now ?? Date.now()))) {
    throw new AppError("bad_request", "the current password is not correct");
  }
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new AppError("bad_request", problem);
  await storage.accounts.users.setPasswordHash(user.id, await hashPassword(input.newPassword));
  await storage.accounts.loginSessions.deleteForUser(user.id, input.keepSessionId);
}
