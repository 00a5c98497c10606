-- Issue alerts (issue 34, docs/adr/0019-alert-outbox.md): rules, the issue feed the commit writes,
-- per-(rule, issue) firing state, the delivery outbox, issue snoozes and personal settings.

-- Sentry's rule shape: conditions (when), filters (if) and actions (then) are JSON arrays.
CREATE TABLE alert_rules (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id     INTEGER NOT NULL,
  name           TEXT NOT NULL,
  action_match   TEXT NOT NULL,
  filter_match   TEXT NOT NULL,
  conditions     TEXT NOT NULL,
  filters        TEXT NOT NULL,
  actions        TEXT NOT NULL,
  environment    TEXT,
  frequency      INTEGER NOT NULL,
  muted          INTEGER NOT NULL DEFAULT 0,
  signing_secret TEXT NOT NULL,
  created_by     INTEGER,
  date_created   INTEGER NOT NULL,
  date_updated   INTEGER NOT NULL
);
CREATE INDEX alert_rules_project ON alert_rules(project_id, id);

-- Written by the ingest commit in the same transaction as the issue change: one row per issue per
-- committed batch. prev_status is the issue's status before the batch, NULL for an issue the batch
-- created. Evaluated rows stay for frequency windows until the cleanup removes them.
CREATE TABLE alert_issue_feed (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  issue_id     INTEGER NOT NULL,
  project_id   INTEGER NOT NULL,
  prev_status  TEXT,
  count        INTEGER NOT NULL,
  users        TEXT NOT NULL,
  level        TEXT NOT NULL,
  release      TEXT,
  tags         TEXT NOT NULL,
  committed    INTEGER NOT NULL,
  evaluated    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX alert_issue_feed_pending ON alert_issue_feed(id) WHERE evaluated = 0;
CREATE INDEX alert_issue_feed_issue ON alert_issue_feed(issue_id, committed);

-- When a rule last fired for an issue, per condition that held (condition id): the action interval.
-- Per condition so that a regression is heard even within the interval of the new-issue alert.
CREATE TABLE alert_rule_issues (
  rule_id     INTEGER NOT NULL,
  issue_id    INTEGER NOT NULL,
  condition   TEXT NOT NULL,
  last_fired  INTEGER NOT NULL,
  PRIMARY KEY (rule_id, issue_id, condition)
);

-- The outbox: one row per message to send. dedupe_key makes a second insert of the same message a no-op.
CREATE TABLE alert_deliveries (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  rule_id          INTEGER,
  project_id       INTEGER NOT NULL,
  issue_id         INTEGER,
  kind             TEXT NOT NULL,
  channel          TEXT NOT NULL,
  target           TEXT NOT NULL,
  payload          TEXT NOT NULL,
  dedupe_key       TEXT NOT NULL UNIQUE,
  status           TEXT NOT NULL DEFAULT 'pending',
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  lease_until      INTEGER,
  last_error       TEXT,
  date_created     INTEGER NOT NULL,
  date_sent        INTEGER
);
CREATE INDEX alert_deliveries_due ON alert_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_deliveries_rule ON alert_deliveries(rule_id, id);

CREATE TABLE alert_issue_snoozes (
  issue_id    INTEGER PRIMARY KEY,
  until       INTEGER NOT NULL,
  user_id     INTEGER,
  date_created INTEGER NOT NULL
);

-- Personal settings: a row per (user, project) that differs from the default (email on).
CREATE TABLE alert_user_settings (
  user_id     INTEGER NOT NULL,
  project_id  INTEGER NOT NULL,
  email       INTEGER NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
