/**
 * Sentry's shapes for API tokens (ApiTokenSerializer), organisation members
 * (OrganizationMemberSerializer), teams (TeamSerializer) and audit-log rows (AuditLogEntrySerializer),
 * limited to the fields Periscope has. Secrets never appear, except the new token in POST's answer.
 */
import type { ApiToken, AuditEntry, MemberWithUser, Team, User } from "../../model";
import { isoDate } from "./common";

export interface ApiTokenJson {
  id: string;
  name: string;
  scopes: string[];
  application: null;
  expiresAt: null;
  dateCreated: string;
  lastUsedDate: string | null;
  tokenLastCharacters: string;
}

export function serializeApiToken(token: ApiToken): ApiTokenJson {
  return {
    id: token.id,
    name: token.name,
    scopes: [...token.scopes],
    application: null,
    expiresAt: null,
    dateCreated: isoDate(token.dateCreated),
    lastUsedDate: token.lastUsed === null ? null : isoDate(token.lastUsed),
    tokenLastCharacters: token.tokenLastChars,
  };
}

export interface UserJson {
  id: string;
  email: string;
  username: string;
  name: string;
  dateJoined: string;
  lastLogin: string | null;
}

export function serializeUser(user: User): UserJson {
  return {
    id: user.id,
    email: user.email,
    username: user.email,
    name: user.name,
    dateJoined: isoDate(user.dateCreated),
    lastLogin: user.lastLogin === null ? null : isoDate(user.lastLogin),
  };
}

const ROLE_NAMES = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" } as const;

export function serializeMember(member: MemberWithUser) {
  return {
    id: member.id,
    email: member.user.email,
    name: member.user.name,
    user: serializeUser(member.user),
    orgRole: member.role,
    role: member.role,
    roleName: ROLE_NAMES[member.role],
    pending: false,
    expired: false,
    inviteStatus: "approved" as const,
    dateCreated: isoDate(member.dateCreated),
  };
}

export function serializeTeam(team: Team, memberCount: number, isMember: boolean) {
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    dateCreated: isoDate(team.dateCreated),
    isMember,
    memberCount,
    hasAccess: true,
    isPending: false,
    avatar: { avatarType: "letter_avatar", avatarUuid: null },
  };
}

export function serializeAuditEntry(entry: AuditEntry) {
  return {
    id: entry.id,
    actor: entry.actorUserId === null ? null : { id: entry.actorUserId, email: entry.actorLabel, name: entry.actorLabel },
    actorLabel: entry.actorLabel,
    event: entry.event,
    targetObject: entry.targetId,
    targetType: entry.targetType,
    data: entry.data,
    ipAddress: entry.ipAddress,
    note: "",
    dateCreated: isoDate(entry.dateCreated),
  };
}
