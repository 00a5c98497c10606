-- Per-key rate limits and per-project options (issue 33). App data: retention never touches these.
-- A key's rate limit is `rate_limit_count` events per `rate_limit_window` seconds; both NULL: none.
ALTER TABLE project_keys ADD COLUMN rate_limit_count BIGINT;
ALTER TABLE project_keys ADD COLUMN rate_limit_window BIGINT;

-- Sentry's project options (allowed origins, inbound filters): one JSON value per name.
CREATE TABLE project_options (
  project_id  BIGINT NOT NULL REFERENCES projects(id),
  name        TEXT NOT NULL,
  value       TEXT NOT NULL,
  PRIMARY KEY (project_id, name)
);

-- Per-key rate-limit counters shared by every process: one row per key and window, incremented by
-- one upsert per request (SQLite is one process and counts in memory instead). UNLOGGED: no WAL
-- write or fsync per request; a crash loses the current windows' counts, which only lets keys
-- start their windows afresh.
CREATE UNLOGGED TABLE key_rate_counts (
  key_id        BIGINT NOT NULL,
  window_start  BIGINT NOT NULL,
  count         BIGINT NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
