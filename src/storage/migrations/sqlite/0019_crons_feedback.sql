-- Cron monitors (check_in items), their check-ins, and user feedback (feedback / user_report items).
-- App data: written over Kysely (src/storage/app/monitors.ts, src/storage/app/feedback.ts). Times Unix ms.

-- A monitor's slug is unique in its organisation (Sentry). next_checkin_latest is the time after
-- which the detection job records a missed check-in; it is also the job's claim: a process records
-- the miss only when its conditional UPDATE moving it on still finds the value it read.
CREATE TABLE monitors (
  id                      INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id         INTEGER NOT NULL,
  project_id              INTEGER NOT NULL,
  slug                    TEXT NOT NULL,
  name                    TEXT NOT NULL,
  status                  TEXT NOT NULL DEFAULT 'active',
  schedule_type           TEXT NOT NULL,
  schedule                TEXT NOT NULL,
  schedule_unit           TEXT,
  checkin_margin          INTEGER,
  max_runtime             INTEGER,
  timezone                TEXT,
  failure_issue_threshold INTEGER,
  recovery_threshold      INTEGER,
  date_created            INTEGER NOT NULL,
  next_checkin            INTEGER,
  next_checkin_latest     INTEGER,
  last_checkin            INTEGER,
  last_status             TEXT,
  last_environment        TEXT,
  health                  TEXT NOT NULL DEFAULT 'ok',
  consecutive_failures    INTEGER NOT NULL DEFAULT 0,
  consecutive_oks         INTEGER NOT NULL DEFAULT 0,
  incident_issue_id       INTEGER,
  UNIQUE (organization_id, slug)
);
CREATE INDEX monitors_due ON monitors(next_checkin_latest) WHERE status = 'active';
CREATE INDEX monitors_project ON monitors(project_id);

-- One row per run: in_progress until finished (ok, error) or timed out by the job; missed rows are
-- the job's. guid is the SDK's check_in_id (ours for missed ones).
CREATE TABLE monitor_checkins (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  monitor_id     INTEGER NOT NULL,
  project_id     INTEGER NOT NULL,
  guid           TEXT NOT NULL,
  status         TEXT NOT NULL,
  duration       INTEGER,
  environment    TEXT,
  release        TEXT,
  trace_id       TEXT,
  date_added     INTEGER NOT NULL,
  date_updated   INTEGER NOT NULL,
  expected_time  INTEGER,
  timeout_at     INTEGER,
  UNIQUE (monitor_id, guid)
);
CREATE INDEX monitor_checkins_monitor ON monitor_checkins(monitor_id, date_added);
CREATE INDEX monitor_checkins_timeout ON monitor_checkins(timeout_at) WHERE status = 'in_progress';

-- User feedback: the new `feedback` event (feedback_id = its event id) or a legacy `user_report`
-- (feedback_id generated). issue_id is filled once the associated event is known.
CREATE TABLE user_feedback (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id           INTEGER NOT NULL,
  feedback_id          TEXT NOT NULL,
  kind                 TEXT NOT NULL,
  name                 TEXT,
  email                TEXT,
  message              TEXT NOT NULL,
  url                  TEXT,
  associated_event_id  TEXT,
  issue_id             INTEGER,
  replay_id            TEXT,
  trace_id             TEXT,
  environment          TEXT,
  release              TEXT,
  source               TEXT,
  payload              TEXT NOT NULL,
  date_created         INTEGER NOT NULL,
  UNIQUE (project_id, feedback_id)
);
CREATE INDEX user_feedback_project ON user_feedback(project_id, date_created);
CREATE INDEX user_feedback_issue ON user_feedback(issue_id, date_created);
CREATE INDEX user_feedback_event ON user_feedback(project_id, associated_event_id);
