-- Issue search (issue 35): the "users" sort gets the index the other sorts have, and saved
-- searches (per person or shared with the organisation), as Sentry's /organizations/{org}/searches/.
CREATE INDEX issues_project_user_count ON issues(project_id, user_count DESC, id DESC);

CREATE TABLE saved_searches (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL,
  -- Who made it; only they see it while visibility is 'owner'.
  owner_id         INTEGER NOT NULL,
  visibility       TEXT NOT NULL CHECK (visibility IN ('owner', 'organization')),
  name             TEXT NOT NULL,
  query            TEXT NOT NULL,
  sort             TEXT NOT NULL,
  date_created     INTEGER NOT NULL
);
CREATE INDEX saved_searches_organization ON saved_searches(organization_id, id);
