-- Issue workflow: why an ignored issue comes back (ignore until a time / N events / N users /
-- escalating) or which release a resolution holds for, as JSON (src/model/issues.ts,
-- IssueStatusDetails). NULL for plain unresolved / resolved / ignored-forever issues. On the issue
-- row so the commit that updates the row's counters reads it at no extra cost.
ALTER TABLE issues ADD COLUMN status_details TEXT;

-- Merged issues: events whose grouping hash belonged to an issue merged into another go to that
-- issue. Looked up only when no issue has the hash (new groupings), so the hot path is unchanged.
-- issue_row keeps the merged issue's own columns (JSON: id, seq, title, …) so that unmerging the
-- hash brings the issue back under its id and short id.
CREATE TABLE issue_merged_hashes (
  project_id       INTEGER NOT NULL,
  grouping_config  TEXT NOT NULL,
  hash             TEXT NOT NULL,
  issue_id         INTEGER NOT NULL,
  issue_row        TEXT NOT NULL,
  PRIMARY KEY (project_id, grouping_config, hash)
);
CREATE INDEX issue_merged_hashes_issue ON issue_merged_hashes(issue_id);
