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
  /** Events per window; both NULL when the key has no rate limit (migrations sqlite/0010, postgres/0005). */
  rate_limit_count: number | null;
  rate_limit_window: number | null;
}

/** Sentry's project options by name; `value` is JSON. */
export interface ProjectOptionsTable {
  project_id: number;
  name: string;
  value: string;
}

/** PostgreSQL only: per-key rate-limit counters shared by every process (SQLite counts in memory). */
export interface KeyRateCountsTable {
  key_id: number;
  window_start: number;
  count: number;
}

// Quotas (issue 33 item 4): migrations sqlite/0012, postgres/0007.
/** One quota; project_id 0: the organisation's. */
export interface QuotasTable {
  organization_id: number;
  project_id: number;
  category: string;
  time_window: string;
  quota_limit: number;
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

/** Releases and artifacts (migrations/sqlite/0008_releases.sql, migrations/postgres/0003_releases.sql). */
export interface ReleasesTable {
  id: Generated<number>;
  organization_id: number;
  version: string;
  url: string | null;
  status: Generated<string>;
  date_created: number;
  date_started: number | null;
  date_released: number | null;
}

export interface ReleaseProjectsTable {
  release_id: number;
  project_id: number;
}

export interface RepositoriesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  url: string | null;
  provider: string | null;
  date_created: number;
}

export interface ReleaseCommitsTable {
  release_id: number;
  repository_id: number;
  sha: string;
  position: number;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  timestamp: number | null;
}

export interface DeploysTable {
  id: Generated<number>;
  release_id: number;
  environment: string;
  name: string | null;
  url: string | null;
  date_started: number | null;
  date_finished: number;
  /** JSON array of project ids. */
  project_ids: string;
}

export interface ArtifactChunksTable {
  organization_id: number;
  sha1: string;
  size: number;
  date_uploaded: number;
}

export interface ArtifactBundlesTable {
  id: Generated<number>;
  organization_id: number;
  checksum: string;
  bundle_id: string;
  release: string | null;
  dist: string | null;
  file_count: number;
  size: number;
  date_uploaded: number;
}

export interface ArtifactBundleProjectsTable {
  bundle_id: number;
  project_id: number;
}

export interface ArtifactBundleFilesTable {
  bundle_id: number;
  url: string;
  kind: string;
  debug_id: string | null;
  source_map_ref: string | null;
  sha1: string;
  size: number;
}

export interface ReleaseFilesTable {
  id: Generated<number>;
  organization_id: number;
  project_id: number;
  release: string;
  /** '' when uploaded without a dist. */
  dist: string;
  name: string;
  kind: string;
  debug_id: string | null;
  source_map_ref: string | null;
  sha1: string;
  size: number;
  /** JSON object. */
  headers: string;
  date_created: number;
}

/** PostgreSQL only: SQLite keeps artifact bytes as files under DATA_DIR/blobs (ADR 0015). */
export interface ArtifactBlobsTable {
  sha1: string;
  size: number;
  data: Buffer;
}

/** Data scrubbing settings (migrations/sqlite/0009_privacy.sql, migrations/postgres/0004_privacy.sql): PrivacySettings as JSON text. */
export interface OrganizationPrivacyTable {
  organization_id: number;
  settings: string;
  date_updated: number;
}

export interface ProjectPrivacyTable {
  project_id: number;
  settings: string;
  date_updated: number;
}

// Issue triage (migrations sqlite/0011, postgres/0006): shared by issue search and the workflow.
export interface IssueAssignmentsTable {
  issue_id: number;
  /** Exactly one of user_id and team_id is set. */
  user_id: number | null;
  team_id: number | null;
  date_assigned: number;
}

export interface IssueBookmarksTable {
  issue_id: number;
  user_id: number;
  date_created: number;
}

/** A row means the issue was reviewed (left the for_review inbox). */
export interface IssueReviewsTable {
  issue_id: number;
  user_id: number | null;
  date_reviewed: number;
}

export interface IssueActivityTable {
  id: Generated<number>;
  issue_id: number;
  /** e.g. set_resolved, set_ignored, set_unresolved, assigned, unassigned, set_regression, note. */
  type: string;
  user_id: number | null;
  /** JSON object. */
  data: Generated<string>;
  date_created: number;
}

// Issue search (migrations sqlite/0014, postgres/0009): saved searches, per person or shared.
export interface SavedSearchesTable {
  id: Generated<number>;
  organization_id: number;
  owner_id: number;
  /** owner or organization (a CHECK constraint on both engines). */
  visibility: string;
  name: string;
  query: string;
  sort: string;
  date_created: number;
}

// Cron monitors and user feedback (migrations sqlite/0019, postgres/0014).
export interface MonitorsTable {
  id: Generated<number>;
  organization_id: number;
  project_id: number;
  slug: string;
  name: string;
  status: Generated<string>;
  schedule_type: string;
  schedule: string;
  schedule_unit: string | null;
  checkin_margin: number | null;
  max_runtime: number | null;
  timezone: string | null;
  failure_issue_threshold: number | null;
  recovery_threshold: number | null;
  date_created: number;
  next_checkin: number | null;
  next_checkin_latest: number | null;
  last_checkin: number | null;
  last_status: string | null;
  last_environment: string | null;
  health: Generated<string>;
  consecutive_failures: Generated<number>;
  consecutive_oks: Generated<number>;
  incident_issue_id: number | null;
}

export interface MonitorCheckinsTable {
  id: Generated<number>;
  monitor_id: number;
  project_id: number;
  guid: string;
  status: string;
  duration: number | null;
  environment: string | null;
  release: string | null;
  trace_id: string | null;
  date_added: number;
  date_updated: number;
  expected_time: number | null;
  timeout_at: number | null;
}

export interface UserFeedbackTable {
  id: Generated<number>;
  project_id: number;
  feedback_id: string;
  kind: string;
  name: string | null;
  email: string | null;
  message: string;
  url: string | null;
  associated_event_id: string | null;
  issue_id: number | null;
  replay_id: string | null;
  trace_id: string | null;
  environment: string | null;
  release: string | null;
  source: string | null;
  payload: string;
  date_created: number;
}

// Alerts (issue 34; migrations sqlite/0013, postgres/0008; docs/adr/0019-alert-outbox.md).
export interface AlertRulesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  /** "any" or "all": how conditions combine. */
  action_match: string;
  filter_match: string;
  /** JSON arrays in Sentry's rule shape (src/model/alerts.ts). */
  conditions: string;
  filters: string;
  actions: string;
  environment: string | null;
  /** The action interval in minutes. */
  frequency: number;
  muted: Generated<number>;
  signing_secret: string;
  created_by: number | null;
  date_created: number;
  date_updated: number;
}

/** Written by the ingest commit (engine SQL), read and cleaned over Kysely. */
export interface AlertIssueFeedTable {
  id: Generated<number>;
  issue_id: number;
  project_id: number;
  prev_status: string | null;
  count: number;
  /** JSON array of user keys seen in the batch. */
  users: string;
  level: string;
  release: string | null;
  /** JSON array of [key, value] pairs seen in the batch. */
  tags: string;
  committed: number;
  evaluated: Generated<number>;
}

export interface AlertRuleIssuesTable {
  rule_id: number;
  issue_id: number;
  /** The condition id that held. */
  condition: string;
  last_fired: number;
}

export interface AlertDeliveriesTable {
  id: Generated<number>;
  rule_id: number | null;
  project_id: number;
  issue_id: number | null;
  kind: string;
  channel: string;
  target: string;
  /** JSON of AlertMessage. */
  payload: string;
  dedupe_key: string;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: number | null;
  last_error: string | null;
  date_created: number;
  date_sent: number | null;
  /** Metric alerts (sqlite/0020, postgres/0015): the metric rule a delivery belongs to. */
  metric_rule_id: Generated<number | null>;
}

export interface AlertIssueSnoozesTable {
  issue_id: number;
  until: number;
  user_id: number | null;
  date_created: number;
}

export interface AlertUserSettingsTable {
  user_id: number;
  project_id: number;
  email: number;
}

export interface AppDatabase {
  organization_privacy: OrganizationPrivacyTable;
  project_privacy: ProjectPrivacyTable;
  organizations: OrganizationsTable;
  projects: ProjectsTable;
  project_keys: ProjectKeysTable;
  project_options: ProjectOptionsTable;
  key_rate_counts: KeyRateCountsTable;
  // Quotas (issue 33 item 4).
  quotas: QuotasTable;
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
  releases: ReleasesTable;
  release_projects: ReleaseProjectsTable;
  repositories: RepositoriesTable;
  release_commits: ReleaseCommitsTable;
  deploys: DeploysTable;
  artifact_chunks: ArtifactChunksTable;
  artifact_bundles: ArtifactBundlesTable;
  artifact_bundle_projects: ArtifactBundleProjectsTable;
  artifact_bundle_files: ArtifactBundleFilesTable;
  release_files: ReleaseFilesTable;
  artifact_blobs: ArtifactBlobsTable;
  issue_assignments: IssueAssignmentsTable;
  issue_bookmarks: IssueBookmarksTable;
  issue_reviews: IssueReviewsTable;
  issue_activity: IssueActivityTable;
  // Issue search (migrations sqlite/0014, postgres/0009): saved searches.
  saved_searches: SavedSearchesTable;
  // Cron monitors and user feedback.
  monitors: MonitorsTable;
  monitor_checkins: MonitorCheckinsTable;
  user_feedback: UserFeedbackTable;
  // Alerts (issue 34).
  alert_rules: AlertRulesTable;
  alert_issue_feed: AlertIssueFeedTable;
  alert_rule_issues: AlertRuleIssuesTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_issue_snoozes: AlertIssueSnoozesTable;
  alert_user_settings: AlertUserSettingsTable;
  // Metric alerts (issue 34 item 2).
  metric_alert_rules: MetricAlertRulesTable;
}

// Metric alerts (issue 34 item 2; migrations sqlite/0020, postgres/0015).
export interface MetricAlertRulesTable {
  id: Generated<number>;
  organization_id: number;
  project_id: number;
  name: string;
  aggregate: string;
  /** Minutes. */
  time_window: number;
  /** 0 above, 1 below (Sentry's thresholdType). */
  threshold_type: number;
  resolve_threshold: number | null;
  environment: string | null;
  /** JSON array of MetricTrigger. */
  triggers: string;
  signing_secret: string;
  state: Generated<string>;
  state_seq: Generated<number>;
  state_value: number | null;
  state_changed: number | null;
  last_evaluated: number | null;
  created_by: number | null;
  date_created: number;
  date_updated: number;
}
