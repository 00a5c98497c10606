-- Quotas per organisation and project, per data category and window (issue 33 item 4). App data.
-- project_id 0: the organisation's quota, which counts every project of it together.
CREATE TABLE quotas (
  organization_id  INTEGER NOT NULL REFERENCES organizations(id),
  project_id       INTEGER NOT NULL,
  category         TEXT NOT NULL,
  time_window      TEXT NOT NULL,
  quota_limit      INTEGER NOT NULL,
  PRIMARY KEY (organization_id, project_id, category, time_window)
);
