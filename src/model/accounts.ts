/**
 * Accounts: people, their login sessions and API tokens, organisation membership, teams (which own
 * projects), invitations and the audit log.
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

