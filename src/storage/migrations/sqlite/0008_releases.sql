-- Releases, their commits and deploys, and the source-map artifacts sentry-cli uploads (issue 32).
-- App data: retention never touches these tables. Times are Unix ms. Artifact bytes are not here:
-- they are files under DATA_DIR/blobs/, named by their SHA-1 (docs/adr/0015-artifact-storage.md).

CREATE TABLE releases (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  version          TEXT NOT NULL,
  url              TEXT,
  status           TEXT NOT NULL DEFAULT 'open',
  date_created     INTEGER NOT NULL,
  date_started     INTEGER,
  date_released    INTEGER,
  UNIQUE (organization_id, version)
);

CREATE TABLE release_projects (
  release_id  INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  project_id  INTEGER NOT NULL REFERENCES projects(id),
  PRIMARY KEY (release_id, project_id)
) WITHOUT ROWID;
CREATE INDEX release_projects_project ON release_projects(project_id);

-- Repositories commits are named by (sentry-cli's `REPO@SHA`); made when commits name one, or by POST.
CREATE TABLE repositories (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  name             TEXT NOT NULL,
  url              TEXT,
  provider         TEXT,
  date_created     INTEGER NOT NULL,
  UNIQUE (organization_id, name)
);

-- `position` keeps the order the client sent (newest first, as git log lists them).
CREATE TABLE release_commits (
  release_id     INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  repository_id  INTEGER NOT NULL REFERENCES repositories(id),
  sha            TEXT NOT NULL,
  position       INTEGER NOT NULL,
  message        TEXT,
  author_name    TEXT,
  author_email   TEXT,
  timestamp      INTEGER,
  PRIMARY KEY (release_id, repository_id, sha)
) WITHOUT ROWID;

CREATE TABLE deploys (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  release_id      INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  environment     TEXT NOT NULL,
  name            TEXT,
  url             TEXT,
  date_started    INTEGER,
  date_finished   INTEGER NOT NULL,
  -- JSON array of project ids (strings).
  project_ids     TEXT NOT NULL
);
CREATE INDEX deploys_release ON deploys(release_id, date_finished DESC);

-- Chunks uploaded to /chunk-upload/, per organisation (a chunk's hash tells nothing across them).
CREATE TABLE artifact_chunks (
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  sha1             TEXT NOT NULL,
  size             INTEGER NOT NULL,
  date_uploaded    INTEGER NOT NULL,
  PRIMARY KEY (organization_id, sha1)
) WITHOUT ROWID;

-- An assembled artifact bundle, keyed by the SHA-1 of its zip. Its file and project rows are
-- written in the same transaction.
CREATE TABLE artifact_bundles (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  checksum         TEXT NOT NULL,
  bundle_id        TEXT NOT NULL,
  release          TEXT,
  dist             TEXT,
  file_count       INTEGER NOT NULL,
  size             INTEGER NOT NULL,
  date_uploaded    INTEGER NOT NULL,
  UNIQUE (organization_id, checksum)
);

CREATE TABLE artifact_bundle_projects (
  bundle_id   INTEGER NOT NULL REFERENCES artifact_bundles(id) ON DELETE CASCADE,
  project_id  INTEGER NOT NULL REFERENCES projects(id),
  PRIMARY KEY (bundle_id, project_id)
) WITHOUT ROWID;
CREATE INDEX artifact_bundle_projects_project ON artifact_bundle_projects(project_id);

-- The bundle's manifest: one row per file, its bytes stored by SHA-1.
CREATE TABLE artifact_bundle_files (
  bundle_id       INTEGER NOT NULL REFERENCES artifact_bundles(id) ON DELETE CASCADE,
  url             TEXT NOT NULL,
  kind            TEXT NOT NULL,
  debug_id        TEXT,
  source_map_ref  TEXT,
  sha1            TEXT NOT NULL,
  size            INTEGER NOT NULL,
  PRIMARY KEY (bundle_id, url)
) WITHOUT ROWID;
CREATE INDEX artifact_bundle_files_debug_id ON artifact_bundle_files(debug_id) WHERE debug_id IS NOT NULL;

-- The older per-release upload (release + dist + URL). dist is '' when none was given, so that
-- the unique key holds for files without one.
CREATE TABLE release_files (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  project_id       INTEGER NOT NULL REFERENCES projects(id),
  release          TEXT NOT NULL,
  dist             TEXT NOT NULL DEFAULT '',
  name             TEXT NOT NULL,
  kind             TEXT NOT NULL,
  debug_id         TEXT,
  source_map_ref   TEXT,
  sha1             TEXT NOT NULL,
  size             INTEGER NOT NULL,
  -- JSON object of the headers sent with the file.
  headers          TEXT NOT NULL,
  date_created     INTEGER NOT NULL,
  UNIQUE (project_id, release, dist, name)
);
