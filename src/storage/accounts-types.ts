/**
 * The accounts part of the storage contract: people, their login sessions and API tokens,
 * organisation membership, teams (which own projects), invitations, the audit log and login
 * throttling. Implemented by every engine with the same behaviour (contract/accounts-suite.ts).
 *
 * Secrets never reach storage in the clear: passwords arrive as argon2id strings, session and API
 * tokens and invite links as SHA-256 hex digests. Times are Unix milliseconds.
 */
import type { Role, Scope } from "../auth/scopes";

export interface User {
  id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string;
  dateCreated: number;
  lastLogin: number | null;
}

export interface LoginSession {
  id: string;
  userId: string;
  /** Sent back by the browser in the X-CSRFToken header on state-changing API requests. */
  csrfToken: string;
  dateCreated: number;
  expiresAt: number;
}

export interface ApiToken {
  id: string;
  userId: string;
  name: string;
  /** Last four characters of the token, so people can tell their tokens apart. */
  tokenLastChars: string;
  scopes: Scope[];
  dateCreated: number;
  lastUsed: number | null;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  role: Role;
  dateCreated: number;
}

export interface MemberWithUser extends Member {
  user: User;
}

export interface Team {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  dateCreated: number;
}

export interface Invite {
  id: string;
  organizationId: string;
  role: Role;
  /** Teams the new member joins on acceptance. */
  teamIds: string[];
  /** Optional: when set only this address may accept. Lower-cased. */
  email: string | null;
  invitedByUserId: string | null;
  dateCreated: number;
  expiresAt: number;
  acceptedAt: number | null;
}

export interface AuditEntry {
  id: string;
  organizationId: string;
  /** Null when the change came from the command line or the server itself. */
  actorUserId: string | null;
  /** Who did it, as shown: an email, "cli" or "system". */
  actorLabel: string;
  /** Dotted name, e.g. "member.invite", "member.role_change", "token.create", "key.create", "project.create". */
  event: string;
  targetType: string;
  targetId: string | null;
  data: Record<string, unknown>;
  ipAddress: string | null;
  dateCreated: number;
}

export type NewAuditEntry = Omit<AuditEntry, "id" | "dateCreated"> & { dateCreated?: number };

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
  setRole(memberId: string, role: Role): Promise<Member | null>;
  /** Removes the member and their team memberships. */
  remove(memberId: string): Promise<void>;
  countOwners(organizationId: string): Promise<number>;
  /** In one transaction: `toMemberId` becomes owner and `fromMemberId` becomes admin. */
  transferOwnership(fromMemberId: string, toMemberId: string): Promise<void>;
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
  delete(inviteId: string): Promise<void>;
}

export interface AuditRepo {
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. `before` is the id of the last entry of the previous page. */
  list(organizationId: string, limit: number, before?: string): Promise<AuditEntry[]>;
}

/** Failed logins, counted per key ("email:<address>" or "ip:<address>") over a sliding window. */
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
