-- Logs (`log` items, issue 38): one row per line. `timestamp` is Unix ms with its fraction (what
-- lists sort and retention expires by); `timestamp_ns` the exact nanoseconds as decimal text.
-- Attributes are the SDK's `{key: {value, type}}` object as JSON. Two indexes only, each one more
-- B-tree insert per line: the list newest first per project, and the same per level (the filter
-- the log explorer uses most). Other filters are checked on the rows the time order reads.
CREATE TABLE logs (
  project_id       INTEGER NOT NULL,
  timestamp        REAL NOT NULL,
  id               TEXT NOT NULL,
  timestamp_ns     TEXT NOT NULL,
  trace_id         TEXT,
  span_id          TEXT,
  level            TEXT NOT NULL,
  severity_number  INTEGER NOT NULL,
  received         INTEGER NOT NULL,
  body             TEXT NOT NULL,
  attributes       TEXT NOT NULL
);
CREATE INDEX logs_project_time ON logs(project_id, timestamp DESC, id DESC);
CREATE INDEX logs_project_level_time ON logs(project_id, level, timestamp DESC, id DESC);
