-- The trace an error event was captured in (contexts.trace.trace_id), so a trace lists its errors
-- (issue 36). NULL for events without a trace and for events stored before this migration. The
-- index holds only events with a trace.
ALTER TABLE events ADD COLUMN trace_id TEXT;
CREATE INDEX events_trace ON events(trace_id) WHERE trace_id IS NOT NULL;

-- Performance views (issue 36, ADR 0022): one narrow row per segment (a transaction's root or a
-- streamed segment span) and one per web-vital value, written at commit time beside the spans. The
-- transactions list, a transaction's summary and the web vitals read these instead of the spans,
-- whose segments sit in span_groups' JSON on SQLite. Times Unix ms; durations ms.
CREATE TABLE segment_samples (
  project_id   INTEGER NOT NULL,
  end_ts       REAL NOT NULL,
  trace_id     TEXT NOT NULL,
  span_id      TEXT NOT NULL,
  name         TEXT NOT NULL,
  op           TEXT NOT NULL,
  duration     REAL NOT NULL,
  -- 1 when the status is neither ok, cancelled nor unknown (Sentry's failure_rate()).
  failed       INTEGER NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  -- The transaction event it came in (null for streamed segments).
  event_id     TEXT,
  PRIMARY KEY (project_id, end_ts, trace_id, span_id)
) WITHOUT ROWID;
CREATE INDEX segment_samples_name ON segment_samples(project_id, name, end_ts, duration, failed);

CREATE TABLE vital_samples (
  project_id   INTEGER NOT NULL,
  vital        TEXT NOT NULL,
  end_ts       REAL NOT NULL,
  trace_id     TEXT NOT NULL,
  span_id      TEXT NOT NULL,
  -- The page: the segment (page load, navigation) the value was measured in.
  page         TEXT NOT NULL,
  value        REAL NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  PRIMARY KEY (project_id, vital, end_ts, trace_id, span_id)
) WITHOUT ROWID;
