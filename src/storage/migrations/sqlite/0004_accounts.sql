-- Accounts and access control: people, login sessions, API tokens, membership, teams, invitations,
-- the audit log and login throttling. App data, not telemetry: retention never touches these tables.
-- Secrets are stored as digests only (argon2id for passwords, SHA-256 hex for tokens and invite links).
-- AUTOINCREMENT: a deleted session, token, member or invite never hands its id to a newer row.
-- JSON columns (scopes, team_ids, data) are TEXT, as on PostgreSQL (shared row mappers, plain copy).

CREATE TABLE users (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  -- Lower-cased by the storage layer before it gets here.
  email          TEXT NOT NULL UNIQUE,
  name           TEXT NOT NULL,
  password_hash  TEXT NOT NULL,
  date_created   INTEGER NOT NULL,
  last_login     INTEGER
);

CREATE TABLE login_sessions (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash    TEXT NOT NULL UNIQUE,
  csrf_token    TEXT NOT NULL,
  date_created  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL
);
CREATE INDEX login_sessions_user ON login_sessions(user_id);
CREATE INDEX login_sessions_expires ON login_sessions(expires_at);

CREATE TABLE api_tokens (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id           INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  token_hash        TEXT NOT NULL UNIQUE,
  token_last_chars  TEXT NOT NULL,
  scopes            TEXT NOT NULL,
  date_created      INTEGER NOT NULL,
  last_used         INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

CREATE TABLE members (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role             TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  date_created     INTEGER NOT NULL,
  UNIQUE (organization_id, user_id)
);
CREATE INDEX members_user ON members(user_id);

CREATE TABLE teams (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  slug             TEXT NOT NULL,
  name             TEXT NOT NULL,
  date_created     INTEGER NOT NULL,
  UNIQUE (organization_id, slug)
);

CREATE TABLE team_members (
  team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  member_id  INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, member_id)
) WITHOUT ROWID;
CREATE INDEX team_members_member ON team_members(member_id);

CREATE TABLE team_projects (
  team_id     INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, project_id)
) WITHOUT ROWID;
CREATE INDEX team_projects_project ON team_projects(project_id);

CREATE TABLE invites (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id     INTEGER NOT NULL REFERENCES organizations(id),
  role                TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  -- JSON array of team ids (strings) the new member joins on acceptance.
  team_ids            TEXT NOT NULL,
  email               TEXT,
  invited_by_user_id  INTEGER REFERENCES users(id) ON DELETE SET NULL,
  token_hash          TEXT NOT NULL UNIQUE,
  date_created        INTEGER NOT NULL,
  expires_at          INTEGER NOT NULL,
  accepted_at         INTEGER
);
CREATE INDEX invites_organization ON invites(organization_id, id);

CREATE TABLE audit_log (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  -- The label keeps who it was when the user is gone.
  actor_user_id    INTEGER REFERENCES users(id) ON DELETE SET NULL,
  actor_label      TEXT NOT NULL,
  event            TEXT NOT NULL,
  target_type      TEXT NOT NULL,
  target_id        TEXT,
  data             TEXT NOT NULL,
  ip_address       TEXT,
  date_created     INTEGER NOT NULL
);
CREATE INDEX audit_log_organization_newest ON audit_log(organization_id, date_created DESC, id DESC);

-- One row per failed login, per key ("email:<address>", "ip:<address>"); old rows are deleted.
CREATE TABLE login_failures (
  key  TEXT NOT NULL,
  at   INTEGER NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures(key, at);
CREATE INDEX login_failures_at ON login_failures(at);
