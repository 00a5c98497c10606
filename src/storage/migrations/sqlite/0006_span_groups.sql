-- Streamed (v2) spans are stored one row per container and trace instead of one row per span: a
-- row costs its B-tree inserts whatever its size, and 15 rows per streamed page load were ≈ 16 % of
-- the realistic mix's throughput (docs/performance.md). A container whose spans end more than 60 s
-- apart is split so that no row spans more (src/storage/sqlite/span-groups.ts): the span list's
-- paging relies on that bound. Transactions' spans and v1 spans stay in `spans`.
CREATE TABLE span_groups (
  project_id  INTEGER NOT NULL,
  trace_id    TEXT NOT NULL,
  -- A hash of the row's span ids in order: a retried container makes the same rows, stored once.
  group_key   TEXT NOT NULL,
  min_end     REAL NOT NULL,
  max_end     REAL NOT NULL,
  -- What the span list filters on, so that rows none of whose spans match are skipped without
  -- reading `spans` (kept last: a long value runs on into overflow pages): the distinct ops and
  -- segment names, each between newlines.
  ops           TEXT NOT NULL,
  segment_names TEXT NOT NULL,
  -- JSON arrays of the spans (SpanData, the trace id included), ordered by end: the segments apart,
  -- which the transactions list reads (ADR 0001) without the rest; NULL when there are none.
  segments      TEXT,
  spans         TEXT,
  PRIMARY KEY (project_id, trace_id, group_key)
);
-- min_end beside max_end: the span list skips rows that end after its cursor from the index alone.
CREATE INDEX span_groups_project_end ON span_groups(project_id, max_end DESC, min_end);

-- Every span as one row, in the columns of `spans`: for the PostgreSQL migration and ad-hoc SQL.
CREATE VIEW all_spans AS
  SELECT project_id, trace_id, span_id, parent_span_id, segment_id, event_id, is_segment, op, name, status,
    start_ts, end_ts, duration, segment_name, release, environment, sdk_name, attributes, measurements
  FROM spans
  UNION ALL
  SELECT g.project_id, g.trace_id, s.value ->> '$.spanId', s.value ->> '$.parentSpanId', s.value ->> '$.segmentId',
    s.value ->> '$.eventId', s.value ->> '$.isSegment', s.value ->> '$.op', s.value ->> '$.name', s.value ->> '$.status',
    s.value ->> '$.start', s.value ->> '$.end', (s.value ->> '$.end') - (s.value ->> '$.start'), s.value ->> '$.segmentName',
    s.value ->> '$.release', s.value ->> '$.environment', s.value ->> '$.sdkName', s.value -> '$.attributes',
    s.value -> '$.measurements'
  FROM span_groups g, (SELECT 0 AS part UNION ALL SELECT 1) p, json_each(CASE p.part WHEN 0 THEN g.segments ELSE g.spans END) s;
