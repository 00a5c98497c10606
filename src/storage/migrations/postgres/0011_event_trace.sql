-- The trace an error event was captured in (contexts.trace.trace_id), so a trace lists its errors
-- (issue 36). NULL for events without a trace and for events stored before this migration. The
-- index holds only events with a trace; it is made on each day partition.
ALTER TABLE events ADD COLUMN trace_id TEXT COLLATE "C";
CREATE INDEX events_trace ON events(trace_id) WHERE trace_id IS NOT NULL;
