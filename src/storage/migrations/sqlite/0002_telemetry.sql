-- Telemetry beyond error events: sessions, transactions, spans (linked to app data by id only).
-- Hour buckets and times are Unix milliseconds; span/transaction times keep their fraction (REAL).

-- The latest state of each session (`session` items), the one with the highest `seq`.
-- environment is '' when the SDK sent none (key columns must not be NULL to aggregate).
CREATE TABLE session_states (
  project_id   INTEGER NOT NULL,
  sid          TEXT NOT NULL,
  did          TEXT,
  seq          INTEGER NOT NULL,
  init         INTEGER NOT NULL,
  started      INTEGER NOT NULL,
  timestamp    INTEGER NOT NULL,
  status       TEXT NOT NULL,
  errors       INTEGER NOT NULL,
  duration     REAL,
  release      TEXT NOT NULL,
  environment  TEXT NOT NULL,
  PRIMARY KEY (project_id, sid)
) WITHOUT ROWID;

-- Sessions per hour they started in, by health (healthy, errored, unhandled, abnormal, crashed).
-- Single sessions move between healths as their state changes; `sessions` aggregates add to it.
CREATE TABLE session_counts (
  project_id   INTEGER NOT NULL,
  hour         INTEGER NOT NULL,
  release      TEXT NOT NULL,
  environment  TEXT NOT NULL,
  health       TEXT NOT NULL,
  quantity     INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour, release, environment, health)
) WITHOUT ROWID;

-- Distinct users (`did`) per hour, with the most severe health (0 healthy … 4 crashed) they reached.
CREATE TABLE session_users (
  project_id   INTEGER NOT NULL,
  hour         INTEGER NOT NULL,
  release      TEXT NOT NULL,
  environment  TEXT NOT NULL,
  did          TEXT NOT NULL,
  severity     INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour, release, environment, did)
) WITHOUT ROWID;

-- One row per transaction event; `payload` is the normalised event including its spans. Lists of
-- transactions read the segment spans below (a transaction's root is one, as is a streamed segment).
CREATE TABLE transactions (
  project_id    INTEGER NOT NULL,
  event_id      TEXT NOT NULL,
  trace_id      TEXT NOT NULL,
  span_id       TEXT NOT NULL,
  name          TEXT NOT NULL,
  op            TEXT,
  status        TEXT,
  start_ts      REAL NOT NULL,
  end_ts        REAL NOT NULL,
  duration      REAL NOT NULL,
  release       TEXT,
  environment   TEXT NOT NULL,
  measurements  TEXT NOT NULL,
  received      INTEGER NOT NULL,
  payload       TEXT NOT NULL,
  PRIMARY KEY (project_id, event_id)
);

-- One row per span: transaction roots (segments) and children, v1 span items, v2 container elements.
CREATE TABLE spans (
  project_id      INTEGER NOT NULL,
  trace_id        TEXT NOT NULL,
  span_id         TEXT NOT NULL,
  parent_span_id  TEXT,
  segment_id      TEXT,
  event_id        TEXT,
  is_segment      INTEGER NOT NULL,
  op              TEXT,
  name            TEXT NOT NULL,
  status          TEXT,
  start_ts        REAL NOT NULL,
  end_ts          REAL NOT NULL,
  duration        REAL NOT NULL,
  segment_name    TEXT,
  release         TEXT,
  environment     TEXT,
  sdk_name        TEXT,
  attributes      TEXT NOT NULL,
  measurements    TEXT NOT NULL,
  PRIMARY KEY (project_id, trace_id, span_id)
);
CREATE INDEX spans_project_end ON spans(project_id, end_ts DESC, span_id DESC);
CREATE INDEX spans_project_segments ON spans(project_id, is_segment, end_ts DESC, span_id DESC);
