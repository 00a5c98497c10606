/**
 * Releases as sentry-cli and the UI see them: made explicitly (`releases new`), or implicitly by the
 * `release` of events, sessions and spans (ReleaseActivity, derived at read time from telemetry).
 */
import type { ArtifactKind } from "./artifacts";

export type ReleaseStatus = "open" | "archived";

export interface Release {
  id: string;
  organizationId: string;
  version: string;
  url: string | null;
  status: ReleaseStatus;
  dateCreated: number;
  dateStarted: number | null;
  /** Set by `releases finalize`; null while the release is unreleased. */
  dateReleased: number | null;
  projectIds: string[];
}

export interface Repository {
  id: string;
  organizationId: string;
  name: string;
  url: string | null;
  provider: string | null;
  dateCreated: number;
}

export interface ReleaseCommit {
  repository: string;
  /** The commit id (SHA) as sent. */
  id: string;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  timestamp: number | null;
}

export interface Deploy {
  id: string;
  releaseId: string;
  environment: string;
  name: string | null;
  url: string | null;
  dateStarted: number | null;
  dateFinished: number;
  projectIds: string[];
}

/** What telemetry says about one release in one project: only versions something was sent with. */
export interface ReleaseActivity {
  projectId: string;
  version: string;
  /** Earliest and latest error event, session or span with this release (Unix ms). */
  firstEvent: number | null;
  lastEvent: number | null;
  /** Issues first seen in this release. */
  newIssues: number;
}

/** A stored artifact bundle (what `sentry-cli sourcemaps upload` assembles). */
export interface ArtifactBundle {
  id: string;
  organizationId: string;
  /** SHA-1 of the bundle zip: what sentry-cli assembles by. */
  checksum: string;
  /** The bundle's own debug id (sentry-cli prints it as "Bundle ID"). */
  bundleId: string;
  release: string | null;
  dist: string | null;
  fileCount: number;
  size: number;
  dateUploaded: number;
  projectIds: string[];
}

export interface ReleaseFile {
  id: string;
  organizationId: string;
  projectId: string;
  release: string;
  dist: string | null;
  /** The file's URL, e.g. "~/static/app.min.js". */
  name: string;
  kind: ArtifactKind;
  /** From a `debug-id` header or the file's `debugId` comment; null when none. */
  debugId: string | null;
  sha1: string;
  size: number;
  headers: Record<string, string>;
  dateCreated: number;
}
