-- Issue triage app data shared by search (is:assigned, assigned:, bookmarks:, is:for_review) and the
-- issue workflow (assignment, bookmarks, "mark reviewed", activity). Issue ids as in issues.id.

-- At most one assignee per issue: a user or a team, never both.
CREATE TABLE issue_assignments (
  issue_id       INTEGER PRIMARY KEY,
  user_id        INTEGER,
  team_id        INTEGER,
  date_assigned  INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX issue_assignments_user ON issue_assignments(user_id);
CREATE INDEX issue_assignments_team ON issue_assignments(team_id);

CREATE TABLE issue_bookmarks (
  issue_id      INTEGER NOT NULL,
  user_id       INTEGER NOT NULL,
  date_created  INTEGER NOT NULL,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_bookmarks_user ON issue_bookmarks(user_id, issue_id);

-- A row means "reviewed" (out of the for_review inbox); removed when the issue needs review again
-- (regression, coming back from ignored).
CREATE TABLE issue_reviews (
  issue_id     INTEGER PRIMARY KEY,
  user_id      INTEGER,
  date_reviewed INTEGER NOT NULL
);

-- What happened to an issue: status changes, assignment, regressions, comments. data is JSON.
CREATE TABLE issue_activity (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  issue_id      INTEGER NOT NULL,
  type          TEXT NOT NULL,
  user_id       INTEGER,
  data          TEXT NOT NULL DEFAULT '{}',
  date_created  INTEGER NOT NULL
);
CREATE INDEX issue_activity_issue ON issue_activity(issue_id, id);
