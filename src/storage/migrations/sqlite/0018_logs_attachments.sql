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

-- Attachments (`attachment` items, issue 38): one row per file; the bytes are a file under
-- DATA_DIR/attachments/<first two hex digits of id>/<id>, written before the row (as artifact blobs,
-- ADR 0015). The id hashes the event id, name and content, so a retried envelope stores it once.
-- Expired by `received`, the time its event was received too.
CREATE TABLE attachments (
  project_id       INTEGER NOT NULL,
  event_id         TEXT NOT NULL,
  id               TEXT NOT NULL,
  filename         TEXT NOT NULL,
  content_type     TEXT,
  attachment_type  TEXT NOT NULL,
  size             INTEGER NOT NULL,
  sha1             TEXT NOT NULL,
  received         INTEGER NOT NULL,
  PRIMARY KEY (project_id, event_id, id)
) WITHOUT ROWID;
-- The project's total (its limit is checked on every attachment stored) from the index alone.
CREATE INDEX attachments_project_size ON attachments(project_id, size);
CREATE INDEX attachments_received ON attachments(received);
