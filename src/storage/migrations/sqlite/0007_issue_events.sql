-- An issue's events, newest first, no longer come from an index on `events` itself. With many
-- issues receiving events at once, that index took one page write per event (each issue's entries
-- sit on pages of their own), and at 1.3M events stored it cost ≈ 17 % of the ingest throughput
-- (docs/performance.md). The entries now go to `issue_events` in bulk, sorted, every few seconds
-- (src/storage/sqlite/issue-events.ts): an issue's events of those seconds share its pages.
-- Events committed since the last merge are found through `events_committed`, an index whose
-- entries only ever append.

-- When the event's commit ran: strictly increasing per commit (ms). NULL for events stored before
-- this migration, which are in issue_events already.
ALTER TABLE events ADD COLUMN committed INTEGER;

CREATE TABLE issue_events (
  issue_id    INTEGER NOT NULL,
  timestamp   INTEGER NOT NULL,
  event_id    TEXT NOT NULL,
  project_id  INTEGER NOT NULL,
  PRIMARY KEY (issue_id, timestamp, event_id)
) WITHOUT ROWID;
INSERT INTO issue_events (issue_id, timestamp, event_id, project_id)
  SELECT issue_id, timestamp, event_id, project_id FROM events ORDER BY issue_id, timestamp, event_id;

-- Covers what a read of the events not merged yet needs, without reading their rows.
CREATE INDEX events_committed ON events(committed, issue_id, timestamp, event_id, project_id);
DROP INDEX events_issue_time;

-- Events committed at or before `through` are in issue_events; later ones are not.
CREATE TABLE issue_events_merged (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  through  INTEGER NOT NULL
);
INSERT INTO issue_events_merged (id, through) VALUES (1, 0);

-- Retention deletes events; their entries go with them.
CREATE TRIGGER events_delete_issue_events AFTER DELETE ON events BEGIN
  DELETE FROM issue_events WHERE issue_id = old.issue_id AND timestamp = old.timestamp AND event_id = old.event_id;
END;
