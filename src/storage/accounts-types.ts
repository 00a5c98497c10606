/**
 * The accounts part of the storage contract: people, their login sessions and API tokens,
 * organisation membership, teams (which own projects), invitations, the audit log and login
 * throttling. Implemented once for both engines (app/); tests/contract/accounts-suite.ts holds each engine to it.
 * Rules such as "an organisation keeps an owner" are the services' (services/accounts/); the repos
 * offer the atomic statements those rules need.
 * The data types live in src/model/accounts.ts.
 */
import type { Role, Scope } from "../auth/scopes";
import type { ApiToken, AuditEntry, Invite, LoginSession, Member, MemberWithUser, NewAuditEntry, Team, User } from "../model";
export interface UserRepo {
  count(): Promise<number>;
  /** Throws AppError("conflict") when the email is taken. */
  create(input: { email: string; name: string; passwordHash: string }): Promise<User>;
  /**
   * The first account: created only while no user exists at all, atomically (two setup requests
   * racing on a fresh install cannot both succeed); null when some user already exists.
   */
  createFirst(input: { email: string; name: string; passwordHash: string }): Promise<User | null>;
  getById(id: string): Promise<User | null>;
  getByEmail(email: string): Promise<User | null>;
  list(): Promise<User[]>;
  passwordHashOf(userId: string): Promise<string | null>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
  recordLogin(userId: string, at: number): Promise<void>;
}

export interface LoginSessionRepo {
  create(input: { userId: string; tokenHash: string; csrfToken: string; expiresAt: number }): Promise<LoginSession>;
  /** The session with this token digest, or null when unknown or expired at `now`. */
  getValid(tokenHash: string, now: number): Promise<LoginSession | null>;
  delete(id: string): Promise<void>;
  /** "Log out everywhere": removes every session of the user except `keepId`. Returns how many went. */
  deleteForUser(userId: string, keepId?: string): Promise<number>;
  deleteExpired(now: number): Promise<number>;
}

export interface ApiTokenRepo {
  create(input: { userId: string; name: string; tokenHash: string; tokenLastChars: string; scopes: Scope[] }): Promise<ApiToken>;
  getByHash(tokenHash: string): Promise<ApiToken | null>;
  listForUser(userId: string): Promise<ApiToken[]>;
  /** Deletes the user's token; false when the user has no such token. */
  revoke(userId: string, tokenId: string): Promise<boolean>;
  recordUse(tokenId: string, at: number): Promise<void>;
}

export interface MemberRepo {
  /** Throws AppError("conflict") when the user already belongs to the organisation. */
  add(input: { organizationId: string; userId: string; role: Role }): Promise<Member>;
  get(organizationId: string, userId: string): Promise<Member | null>;
  getById(id: string): Promise<Member | null>;
  listByOrganization(organizationId: string): Promise<MemberWithUser[]>;
  listForUser(userId: string): Promise<Member[]>;
  /**
   * Sets the role, unless the member is their organisation's last owner and `role` is not owner:
   * then nothing changes and the answer is "last_owner". One atomic step, so two concurrent changes
   * cannot each remove "the other" owner. null when there is no such member.
   */
  setRole(memberId: string, role: Role): Promise<Member | null | "last_owner">;
  /** Removes the member and their team memberships, unless they are their organisation's last owner (atomic as setRole). */
  remove(memberId: string): Promise<"removed" | "not_found" | "last_owner">;
  countOwners(organizationId: string): Promise<number>;
  /**
   * In one step: `toMemberId` becomes owner and `fromMemberId` admin, only while `fromMemberId` is an
   * owner of the organisation `toMemberId` belongs to; false (and nothing changes) otherwise.
   */
  transferOwnership(fromMemberId: string, toMemberId: string): Promise<boolean>;
}

export interface TeamRepo {
  /** Throws AppError("conflict") when the slug is taken in the organisation. */
  create(input: { organizationId: string; slug: string; name: string }): Promise<Team>;
  getById(id: string): Promise<Team | null>;
  getBySlug(organizationId: string, slug: string): Promise<Team | null>;
  listByOrganization(organizationId: string): Promise<Team[]>;
  /** Idempotent. */
  addMember(teamId: string, memberId: string): Promise<void>;
  removeMember(teamId: string, memberId: string): Promise<void>;
  listMembers(teamId: string): Promise<MemberWithUser[]>;
  listForMember(memberId: string): Promise<Team[]>;
  /** Idempotent. */
  addProject(teamId: string, projectId: string): Promise<void>;
  removeProject(teamId: string, projectId: string): Promise<void>;
  listProjectIds(teamId: string): Promise<string[]>;
  listForProject(projectId: string): Promise<Team[]>;
  /** Ids of the projects owned by any team this member belongs to. */
  projectIdsForMember(memberId: string): Promise<string[]>;
  /**
   * Every team of the organisation → its members' ids, ascending ([] for a team without members),
   * in one query: pages and the API list teams with their members without a query per team.
   */
  memberIdsByTeam(organizationId: string): Promise<Map<string, string[]>>;
  /** Every team of the organisation → the ids of the projects it owns, ascending ([] for none), in one query. */
  projectIdsByTeam(organizationId: string): Promise<Map<string, string[]>>;
}

export interface InviteRepo {
  create(input: {
    organizationId: string;
    role: Role;
    teamIds: string[];
    email: string | null;
    invitedByUserId: string | null;
    tokenHash: string;
    expiresAt: number;
  }): Promise<Invite>;
  getByTokenHash(tokenHash: string): Promise<Invite | null>;
  listPending(organizationId: string, now: number): Promise<Invite[]>;
  /** Marks it accepted unless it already was (then false): one link admits one person. */
  markAccepted(inviteId: string, at: number): Promise<boolean>;
  /**
   * Undoes markAccepted(inviteId, at) when what the claim was for failed: the invite is open again.
   * Only the claim made at `at` is released (false otherwise).
   */
  releaseAcceptance(inviteId: string, at: number): Promise<boolean>;
  delete(inviteId: string): Promise<void>;
}

export interface AuditRepo {
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. `before` is the id of the last entry of the previous page. */
  list(organizationId: string, limit: number, before?: string): Promise<AuditEntry[]>;
}

/**
 * Failed logins, counted per key over sliding windows. Keys (services/accounts/login.ts):
 * "email:<email>", "ip:<address>", "ip-email:<address> <email>", "password:<user id>".
 */
export interface LoginThrottleRepo {
  recordFailure(key: string, at: number): Promise<void>;
  countSince(key: string, since: number): Promise<number>;
  /** The oldest failure at or after `since`, to tell the person when they may try again. */
  oldestSince(key: string, since: number): Promise<number | null>;
  clear(key: string): Promise<void>;
  /** Removes one failure recorded for `key` at `at` (an attempt that did not turn out a failure). */
  forgetOne(key: string, at: number): Promise<void>;
  deleteBefore(at: number): Promise<number>;
}

export interface AccountStore {
  users: UserRepo;
  loginSessions: LoginSessionRepo;
  tokens: ApiTokenRepo;
  members: MemberRepo;
  teams: TeamRepo;
  invites: InviteRepo;
  audit: AuditRepo;
  loginThrottle: LoginThrottleRepo;
}
