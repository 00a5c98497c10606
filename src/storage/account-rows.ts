/**
 * Account table rows ↔ storage types, shared by both engines (migrations/*\/..._accounts.sql have the
 * same columns on SQLite and PostgreSQL). JSON values (token scopes, invite team ids, audit data) are
 * TEXT on both, so one mapper reads them.
 */
import type { Role, Scope } from "../auth/scopes";
import { AppError } from "../errors";
import type { ApiToken, AuditEntry, Invite, LoginSession, Member, MemberWithUser, Team, User } from "../model";

/** A decimal row id, or null for anything else (a slug, garbage from a URL): it then matches no row. */
export function rowIdOf(id: string): number | null {
  return /^\d{1,15}$/.test(id) ? Number(id) : null;
}

/** Emails are stored and looked up lower-cased. */
export const normalEmail = (email: string): string => email.toLowerCase();

/** What a violated constraint means to the caller: a taken unique name, or a row that does not exist. */
export type ConstraintKind = "unique" | "missing";

/** Maps a constraint violation (kind found by the engine) to the AppError the contract promises; rethrows anything else. */
export function rethrowConstraint(error: unknown, kind: ConstraintKind | null, messages: Partial<Record<ConstraintKind, string>>): never {
  const message = kind ? messages[kind] : undefined;
  if (kind === "unique" && message) throw new AppError("conflict", message);
  if (kind === "missing" && message) throw new AppError("not_found", message);
  throw error;
}

export interface UserRow {
  id: number;
  email: string;
  name: string;
  date_created: number;
  last_login: number | null;
}

export const USER_COLUMNS = "id, email, name, date_created, last_login";

export const toUser = (row: UserRow): User => ({
  id: String(row.id),
  email: row.email,
  name: row.name,
  dateCreated: row.date_created,
  lastLogin: row.last_login,
});

export interface LoginSessionRow {
  id: number;
  user_id: number;
  csrf_token: string;
  date_created: number;
  expires_at: number;
}

export const LOGIN_SESSION_COLUMNS = "id, user_id, csrf_token, date_created, expires_at";

export const toLoginSession = (row: LoginSessionRow): LoginSession => ({
  id: String(row.id),
  userId: String(row.user_id),
  csrfToken: row.csrf_token,
  dateCreated: row.date_created,
  expiresAt: row.expires_at,
});

export interface ApiTokenRow {
  id: number;
  user_id: number;
  name: string;
  token_last_chars: string;
  scopes: string;
  date_created: number;
  last_used: number | null;
}

export const API_TOKEN_COLUMNS = "id, user_id, name, token_last_chars, scopes, date_created, last_used";

export const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: String(row.id),
  userId: String(row.user_id),
  name: row.name,
  tokenLastChars: row.token_last_chars,
  scopes: JSON.parse(row.scopes) as Scope[],
  dateCreated: row.date_created,
  lastUsed: row.last_used,
});

export interface MemberRow {
  id: number;
  organization_id: number;
  user_id: number;
  role: string;
  date_created: number;
}

export const MEMBER_COLUMNS = "id, organization_id, user_id, role, date_created";

export const toMember = (row: MemberRow): Member => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  userId: String(row.user_id),
  role: row.role as Role,
  dateCreated: row.date_created,
});

export interface MemberWithUserRow extends MemberRow {
  user_email: string;
  user_name: string;
  user_date_created: number;
  user_last_login: number | null;
}

/** Members `m` joined to their users `u`; callers add WHERE and ORDER BY (by `u.email` for lists). */
export const SELECT_MEMBER_WITH_USER = `SELECT m.id, m.organization_id, m.user_id, m.role, m.date_created,
  u.email AS user_email, u.name AS user_name, u.date_created AS user_date_created, u.last_login AS user_last_login
  FROM members m JOIN users u ON u.id = m.user_id`;

export const toMemberWithUser = (row: MemberWithUserRow): MemberWithUser => ({
  ...toMember(row),
  user: {
    id: String(row.user_id),
    email: row.user_email,
    name: row.user_name,
    dateCreated: row.user_date_created,
    lastLogin: row.user_last_login,
  },
});

export interface TeamRow {
  id: number;
  organization_id: number;
  slug: string;
  name: string;
  date_created: number;
}

export const TEAM_COLUMNS = "id, organization_id, slug, name, date_created";

/** The same columns, qualified for joins (`t`). */
export const TEAM_COLUMNS_T = "t.id, t.organization_id, t.slug, t.name, t.date_created";

export const toTeam = (row: TeamRow): Team => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  slug: row.slug,
  name: row.name,
  dateCreated: row.date_created,
});

export interface InviteRow {
  id: number;
  organization_id: number;
  role: string;
  team_ids: string;
  email: string | null;
  invited_by_user_id: number | null;
  date_created: number;
  expires_at: number;
  accepted_at: number | null;
}

export const INVITE_COLUMNS = "id, organization_id, role, team_ids, email, invited_by_user_id, date_created, expires_at, accepted_at";

export const toInvite = (row: InviteRow): Invite => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  role: row.role as Role,
  teamIds: JSON.parse(row.team_ids) as string[],
  email: row.email,
  invitedByUserId: row.invited_by_user_id === null ? null : String(row.invited_by_user_id),
  dateCreated: row.date_created,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
});

export interface AuditRow {
  id: number;
  organization_id: number;
  actor_user_id: number | null;
  actor_label: string;
  event: string;
  target_type: string;
  target_id: string | null;
  data: string;
  ip_address: string | null;
  date_created: number;
}

export const AUDIT_COLUMNS =
  "id, organization_id, actor_user_id, actor_label, event, target_type, target_id, data, ip_address, date_created";

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  actorUserId: row.actor_user_id === null ? null : String(row.actor_user_id),
  actorLabel: row.actor_label,
  event: row.event,
  targetType: row.target_type,
  targetId: row.target_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  ipAddress: row.ip_address,
  dateCreated: row.date_created,
});

/** Raised by both engines when a role change or removal would leave an organisation without an owner. */
export const LAST_OWNER_MESSAGE = "The organization must keep at least one owner: transfer ownership first";

/** Rows of `teams LEFT JOIN <link table>` → team id → linked ids; a team without links has no linked id. */
export function idsByTeam(rows: readonly { team_id: number | string; linked_id: number | string | null }[]): Map<string, string[]> {
  const byTeam = new Map<string, string[]>();
  for (const row of rows) {
    const key = String(row.team_id);
    const ids = byTeam.get(key) ?? [];
    if (row.linked_id !== null) ids.push(String(row.linked_id));
    byTeam.set(key, ids);
  }
  return byTeam;
}
