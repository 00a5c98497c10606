-- Quotas per organisation and project, per data category and window (issue 33 item 4). App data.
-- project_id 0: the organisation's quota, which counts every project of it together.
CREATE TABLE quotas (
  organization_id  BIGINT NOT NULL REFERENCES organizations(id),
  project_id       BIGINT NOT NULL,
  category         TEXT NOT NULL,
  time_window      TEXT NOT NULL,
  quota_limit      BIGINT NOT NULL,
  PRIMARY KEY (organization_id, project_id, category, time_window)
);

-- Quota counters shared by every process: one row per counter (scope, category, window) and window
-- start, added to by one conditional upsert per request that carries a limited category (SQLite is
-- one process and counts in memory instead). UNLOGGED, like key_rate_counts: no WAL write or fsync
-- per request; a crash loses the current windows' counts, which only starts them afresh.
CREATE UNLOGGED TABLE quota_counts (
  name          TEXT NOT NULL,
  window_start  BIGINT NOT NULL,
  count         BIGINT NOT NULL,
  -- The limit the last addition was checked against (the upsert compares with it).
  quota_limit   BIGINT NOT NULL,
  PRIMARY KEY (name, window_start)
);
