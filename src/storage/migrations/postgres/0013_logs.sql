-- Logs (`log` items, issue 38): one row per line, day-partitioned on `timestamp` (Unix ms, with
-- its fraction) like spans, so retention drops whole days. `timestamp_ns` keeps the exact
-- nanoseconds as decimal text; attributes are the SDK's `{key: {value, type}}` object as JSON text
-- (cast to jsonb by the attribute filter only: writing text is cheaper than jsonb).
CREATE TABLE logs (
  project_id       BIGINT NOT NULL,
  timestamp        DOUBLE PRECISION NOT NULL,
  id               TEXT COLLATE "C" NOT NULL,
  timestamp_ns     TEXT NOT NULL,
  trace_id         TEXT COLLATE "C",
  span_id          TEXT COLLATE "C",
  level            TEXT COLLATE "C" NOT NULL,
  severity_number  INTEGER NOT NULL,
  received         BIGINT NOT NULL,
  body             TEXT NOT NULL,
  attributes       TEXT NOT NULL
) PARTITION BY RANGE (timestamp);
CREATE INDEX logs_project_time ON logs(project_id, timestamp DESC, id DESC);
CREATE INDEX logs_project_level_time ON logs(project_id, level, timestamp DESC, id DESC);
