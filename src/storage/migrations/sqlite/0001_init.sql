-- App data ---------------------------------------------------------------------------------------
CREATE TABLE organizations (
  id            INTEGER PRIMARY KEY,
  slug          TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  date_created  INTEGER NOT NULL
);

CREATE TABLE projects (
  id               INTEGER PRIMARY KEY,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  slug             TEXT NOT NULL,
  name             TEXT NOT NULL,
  platform         TEXT,
  date_created     INTEGER NOT NULL,
  -- Last issue number handed out, for short ids (PROJECT-1, PROJECT-2, ...).
  last_issue_seq   INTEGER NOT NULL DEFAULT 0,
  UNIQUE (organization_id, slug)
);

CREATE TABLE project_keys (
  id            INTEGER PRIMARY KEY,
  project_id    INTEGER NOT NULL REFERENCES projects(id),
  label         TEXT NOT NULL,
  public_key    TEXT NOT NULL UNIQUE,
  is_active     INTEGER NOT NULL DEFAULT 1,
  date_created  INTEGER NOT NULL
);
CREATE INDEX project_keys_project ON project_keys(project_id);

CREATE TABLE issues (
  id                 INTEGER PRIMARY KEY,
  project_id         INTEGER NOT NULL,
  grouping_config    TEXT NOT NULL,
  hash               TEXT NOT NULL,
  grouping_strategy  TEXT NOT NULL,
  seq                INTEGER NOT NULL,
  title              TEXT NOT NULL,
  culprit            TEXT NOT NULL,
  level              TEXT NOT NULL,
  type               TEXT NOT NULL,
  metadata           TEXT NOT NULL,
  status             TEXT NOT NULL DEFAULT 'unresolved',
  substatus          TEXT NOT NULL DEFAULT 'new',
  first_seen         INTEGER NOT NULL,
  last_seen          INTEGER NOT NULL,
  times_seen         INTEGER NOT NULL DEFAULT 0,
  user_count         INTEGER NOT NULL DEFAULT 0,
  first_release      TEXT,
  last_release       TEXT,
  UNIQUE (project_id, grouping_config, hash)
);
CREATE INDEX issues_project_last_seen ON issues(project_id, last_seen DESC, id DESC);
CREATE INDEX issues_project_first_seen ON issues(project_id, first_seen DESC, id DESC);
CREATE INDEX issues_project_times_seen ON issues(project_id, times_seen DESC, id DESC);

-- Telemetry (linked to app data by id only) -----------------------------------------------------
CREATE TABLE events (
  project_id     INTEGER NOT NULL,
  event_id       TEXT NOT NULL,
  issue_id       INTEGER NOT NULL,
  grouping_hash  TEXT NOT NULL,
  timestamp      INTEGER NOT NULL,
  received       INTEGER NOT NULL,
  payload        TEXT NOT NULL,
  PRIMARY KEY (project_id, event_id)
);
CREATE INDEX events_issue_time ON events(issue_id, timestamp DESC, event_id DESC);

CREATE TABLE issue_users (
  issue_id  INTEGER NOT NULL,
  user_key  TEXT NOT NULL,
  PRIMARY KEY (issue_id, user_key)
) WITHOUT ROWID;

CREATE TABLE issue_hourly (
  issue_id  INTEGER NOT NULL,
  hour      INTEGER NOT NULL,
  count     INTEGER NOT NULL,
  PRIMARY KEY (issue_id, hour)
) WITHOUT ROWID;

CREATE TABLE issue_tags (
  issue_id    INTEGER NOT NULL,
  key         TEXT NOT NULL,
  value       TEXT NOT NULL,
  count       INTEGER NOT NULL,
  first_seen  INTEGER NOT NULL,
  last_seen   INTEGER NOT NULL,
  PRIMARY KEY (issue_id, key, value)
) WITHOUT ROWID;
CREATE INDEX issue_tags_lookup ON issue_tags(key, value, issue_id);

CREATE TABLE outcomes (
  project_id  INTEGER NOT NULL,
  hour        INTEGER NOT NULL,
  outcome     TEXT NOT NULL,
  category    TEXT NOT NULL,
  -- '' when there is no reason: primary-key columns must not be NULL to aggregate.
  reason      TEXT NOT NULL,
  quantity    INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour, outcome, category, reason)
) WITHOUT ROWID;
