-- Data scrubbing settings (issue 33), per organisation and per project: app data. `settings` is the
-- JSON of PrivacySettings (src/model/privacy.ts), validated before it is written. No row: the defaults.
CREATE TABLE organization_privacy (
  organization_id  INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  settings         TEXT NOT NULL,
  date_updated     INTEGER NOT NULL
);

CREATE TABLE project_privacy (
  project_id    INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  settings      TEXT NOT NULL,
  date_updated  INTEGER NOT NULL
);
