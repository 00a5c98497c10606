-- Per-hour performance rollups (issue 36, ADR 0022 "Rollups"): per hour (Unix ms of its start),
-- transaction or page and vital, environment and release, what the long-window views aggregate,
-- with a log-bucket sketch of the durations (values) as a JSON array of bucket, count pairs
-- (src/storage/perf-rollups.ts). Added to at commit time from the samples a commit stored.
CREATE TABLE segment_rollups (
  project_id   INTEGER NOT NULL,
  hour         INTEGER NOT NULL,
  name         TEXT NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  count        INTEGER NOT NULL,
  failures     INTEGER NOT NULL,
  total        REAL NOT NULL,
  -- The newest segment's end and op (the list shows the op of the latest).
  last_end     REAL NOT NULL,
  last_op      TEXT NOT NULL,
  sketch       TEXT NOT NULL,
  PRIMARY KEY (project_id, hour, name, environment, release)
) WITHOUT ROWID;

CREATE TABLE vital_rollups (
  project_id   INTEGER NOT NULL,
  hour         INTEGER NOT NULL,
  vital        TEXT NOT NULL,
  page         TEXT NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  count        INTEGER NOT NULL,
  good         INTEGER NOT NULL,
  poor         INTEGER NOT NULL,
  sketch       TEXT NOT NULL,
  PRIMARY KEY (project_id, hour, vital, page, environment, release)
) WITHOUT ROWID;

-- Samples stored before this migration have no rollups: the hours up to the newest of them are
-- always read from the samples. 0 when there were none.
CREATE TABLE perf_rollups_since (
  since  INTEGER NOT NULL
);
INSERT INTO perf_rollups_since (since)
SELECT COALESCE(CAST(MAX(end_ts) / 3600000 AS INTEGER) * 3600000 + 3600000, 0)
FROM (SELECT end_ts FROM segment_samples UNION ALL SELECT end_ts FROM vital_samples);
