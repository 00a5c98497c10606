-- Retention (RETENTION_DAYS) deletes expired telemetry in small batches by these times.
CREATE INDEX events_received ON events(received);
CREATE INDEX transactions_received ON transactions(received);
CREATE INDEX spans_end ON spans(end_ts);
CREATE INDEX session_states_timestamp ON session_states(timestamp);
CREATE INDEX session_counts_hour ON session_counts(hour);
CREATE INDEX session_users_hour ON session_users(hour);
CREATE INDEX outcomes_hour ON outcomes(hour);
