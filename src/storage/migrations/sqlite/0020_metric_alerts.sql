-- Metric alerts (issue 34 item 2, docs/alerts.md#metric-alerts): one rule per project watching an
-- aggregate over a window, with its state (ok, warning, critical, resolved) kept beside it so that
-- each change is notified once. Messages go through alert_deliveries like issue alerts.
CREATE TABLE metric_alert_rules (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id   INTEGER NOT NULL,
  project_id        INTEGER NOT NULL,
  name              TEXT NOT NULL,
  aggregate         TEXT NOT NULL,
  time_window       INTEGER NOT NULL,
  threshold_type    INTEGER NOT NULL,
  resolve_threshold REAL,
  environment       TEXT,
  -- JSON array of triggers: [{label, alertThreshold, actions}]
  triggers          TEXT NOT NULL,
  signing_secret    TEXT NOT NULL,
  state             TEXT NOT NULL DEFAULT 'ok',
  -- Bumped on every state change: part of the outbox dedupe key, so one change is queued once.
  state_seq         INTEGER NOT NULL DEFAULT 0,
  state_value       REAL,
  state_changed     INTEGER,
  last_evaluated    INTEGER,
  created_by        INTEGER,
  date_created      INTEGER NOT NULL,
  date_updated      INTEGER NOT NULL
);
CREATE INDEX metric_alert_rules_org ON metric_alert_rules(organization_id, id);

-- A metric rule's deliveries name it here (rule_id stays the issue rule's).
ALTER TABLE alert_deliveries ADD COLUMN metric_rule_id INTEGER;
CREATE INDEX alert_deliveries_metric_rule ON alert_deliveries(metric_rule_id, id);

-- Error count and users of a project's window are summed from the issue feed.
CREATE INDEX alert_issue_feed_project ON alert_issue_feed(project_id, committed);
