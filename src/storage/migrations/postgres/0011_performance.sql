-- The trace an error event was captured in (contexts.trace.trace_id), so a trace lists its errors
-- (issue 36). NULL for events without a trace and for events stored before this migration. The
-- index holds only events with a trace; it is made on each day partition.
ALTER TABLE events ADD COLUMN trace_id TEXT COLLATE "C";
CREATE INDEX events_trace ON events(trace_id) WHERE trace_id IS NOT NULL;

-- Performance views (issue 36, ADR 0022): one narrow row per segment (a transaction's root or a
-- streamed segment span) and one per web-vital value, written at commit time beside the spans, in
-- day partitions by end like the spans. Times Unix ms; durations ms.
CREATE TABLE segment_samples (
  project_id   BIGINT NOT NULL,
  end_ts       DOUBLE PRECISION NOT NULL,
  trace_id     TEXT COLLATE "C" NOT NULL,
  span_id      TEXT COLLATE "C" NOT NULL,
  name         TEXT NOT NULL,
  op           TEXT NOT NULL,
  duration     DOUBLE PRECISION NOT NULL,
  failed       BOOLEAN NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  event_id     TEXT COLLATE "C",
  PRIMARY KEY (project_id, end_ts, trace_id, span_id)
) PARTITION BY RANGE (end_ts);
CREATE INDEX segment_samples_name ON segment_samples(project_id, name, end_ts) INCLUDE (duration, failed);

CREATE TABLE vital_samples (
  project_id   BIGINT NOT NULL,
  vital        TEXT NOT NULL,
  end_ts       DOUBLE PRECISION NOT NULL,
  trace_id     TEXT COLLATE "C" NOT NULL,
  span_id      TEXT COLLATE "C" NOT NULL,
  page         TEXT NOT NULL,
  value        DOUBLE PRECISION NOT NULL,
  environment  TEXT NOT NULL,
  release      TEXT NOT NULL,
  PRIMARY KEY (project_id, vital, end_ts, trace_id, span_id)
) PARTITION BY RANGE (end_ts);
