/**
 * The app-data tables as the query layer (Kysely) sees them, written by hand from the migrations
 * (migrations/sqlite/0001_init.sql + 0004_accounts.sql, migrations/postgres/0001_init.sql +
 * 0002_accounts.sql): the columns are the same on both engines. Ids are INTEGER / BIGINT and times
 * Unix ms, read as JS numbers on both (postgres/db.ts parses BIGINT as a number). JSON values
 * (token scopes, invite team ids, audit data) are TEXT on both. Telemetry tables are not here: their
 * SQL stays hand-written per engine (ADR 0011).
 */
import type { Generated } from "kysely";

export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  date_created: number;
}

export interface ProjectsTable {
  id: Generated<number>;
  organization_id: number;
  slug: string;
  name: string;
  platform: string | null;
  date_created: number;
  /** Written by the ingest path (issue short ids), never by the app-data repositories. */
  last_issue_seq: Generated<number>;
}

export interface ProjectKeysTable {
  id: Generated<number>;
  project_id: number;
  label: string;
  public_key: string;
  /** INTEGER 0/1 on SQLite, BOOLEAN on PostgreSQL. */
  is_active: Generated<number | boolean>;
  date_created: number;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased before it gets here. */
  email: string;
  name: string;
  password_hash: string;
  date_created: number;
  last_login: number | null;
}

export interface LoginSessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  csrf_token: string;
  date_created: number;
  expires_at: number;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  token_last_chars: string;
  /** JSON array of scopes. */
  scopes: string;
  date_created: number;
  last_used: number | null;
}

export interface MembersTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** owner, admin, member or viewer (a CHECK constraint on both engines). */
  role: string;
  date_created: number;
}

export interface TeamsTable {
  id: Generated<number>;
  organization_id: number;
  slug: string;
  name: string;
  date_created: number;
}

export interface TeamMembersTable {
  team_id: number;
  member_id: number;
}

export interface TeamProjectsTable {
  team_id: number;
  project_id: number;
}

export interface InvitesTable {
  id: Generated<number>;
  organization_id: number;
  role: string;
  /** JSON array of team ids (strings). */
  team_ids: string;
  email: string | null;
  invited_by_user_id: number | null;
  token_hash: string;
  date_created: number;
  expires_at: number;
  accepted_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  organization_id: number;
  actor_user_id: number | null;
  actor_label: string;
  event: string;
  target_type: string;
  target_id: string | null;
  /** JSON object. */
  data: string;
  ip_address: string | null;
  date_created: number;
}

export interface LoginFailuresTable {
  key: string;
  at: number;
}

export interface AppDatabase {
  organizations: OrganizationsTable;
  projects: ProjectsTable;
  project_keys: ProjectKeysTable;
  users: UsersTable;
  login_sessions: LoginSessionsTable;
  api_tokens: ApiTokensTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_projects: TeamProjectsTable;
  invites: InvitesTable;
  audit_log: AuditLogTable;
  login_failures: LoginFailuresTable;
}
