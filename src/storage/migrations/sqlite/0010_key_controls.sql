-- Per-key rate limits and per-project options (issue 33). App data: retention never touches these.
-- A key's rate limit is `rate_limit_count` events per `rate_limit_window` seconds; both NULL: none.
ALTER TABLE project_keys ADD COLUMN rate_limit_count INTEGER;
ALTER TABLE project_keys ADD COLUMN rate_limit_window INTEGER;

-- Sentry's project options (allowed origins, inbound filters): one JSON value per name.
CREATE TABLE project_options (
  project_id  INTEGER NOT NULL REFERENCES projects(id),
  name        TEXT NOT NULL,
  value       TEXT NOT NULL,
  PRIMARY KEY (project_id, name)
);
