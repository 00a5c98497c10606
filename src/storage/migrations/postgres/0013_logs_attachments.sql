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

-- Attachments (`attachment` items, issue 38): one row per file with its bytes (bytea, as artifact
-- blobs: ADR 0015), day-partitioned on `received` like events so they expire with them. The id
-- hashes the event id, name and content, so a retried envelope stores it once (per day).
CREATE TABLE attachments (
  project_id       BIGINT NOT NULL,
  event_id         TEXT COLLATE "C" NOT NULL,
  id               TEXT COLLATE "C" NOT NULL,
  filename         TEXT NOT NULL,
  content_type     TEXT,
  attachment_type  TEXT NOT NULL,
  size             BIGINT NOT NULL,
  sha1             TEXT NOT NULL,
  received         BIGINT NOT NULL,
  data             BYTEA NOT NULL,
  PRIMARY KEY (project_id, event_id, id, received)
) PARTITION BY RANGE (received);
-- The project's total (its limit is checked on every attachment stored) from the index alone.
CREATE INDEX attachments_project_size ON attachments(project_id, size);
