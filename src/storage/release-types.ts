/**
 * The storage contract for releases and source-map artifacts (issue 32). Written once over Kysely
 * in src/storage/app/releases.ts and src/storage/app/artifacts.ts; release activity (implicit releases) is read from
 * telemetry by each engine (sqlite/releases.ts, postgres/releases.ts).
 */
import type { ArtifactBundle, ArtifactKind, ArtifactLookup, Deploy, Release, ReleaseActivity, ReleaseCommit, ReleaseFile, Repository, StoredArtifact } from "../model";

export interface NewRelease {
  organizationId: string;
  version: string;
  projectIds: string[];
  url: string | null;
  dateStarted: number | null;
  dateReleased: number | null;
}

export interface ReleaseChanges {
  url?: string | null;
  dateReleased?: number | null;
  status?: "open" | "archived";
  /** Added to the release's projects (never removed, as in Sentry). */
  projectIds?: string[];
}

export interface NewDeploy {
  environment: string;
  name: string | null;
  url: string | null;
  dateStarted: number | null;
  dateFinished: number;
  projectIds: string[];
}

export interface ReleaseRepo {
  /** Creates the release or adds the projects to the existing one; `created` says which. */
  create(input: NewRelease): Promise<{ release: Release; created: boolean }>;
  get(organizationId: string, version: string): Promise<Release | null>;
  /** Newest first; only releases of at least one of `projectIds` when given. */
  list(organizationId: string, options: { projectIds?: string[]; query?: string; limit: number }): Promise<Release[]>;
  update(organizationId: string, version: string, changes: ReleaseChanges): Promise<Release | null>;
  /** Deletes the release with its commits and deploys; false when there was none. */
  delete(organizationId: string, version: string): Promise<boolean>;
  /** Replaces the release's commits (newest first), making the repositories they name. */
  setCommits(release: Release, commits: ReleaseCommit[]): Promise<void>;
  listCommits(releaseId: string): Promise<ReleaseCommit[]>;
  /** The newest other release of the organisation that has commits, made before `release`. */
  previousWithCommits(release: Release): Promise<{ release: Release; lastCommit: ReleaseCommit } | null>;
  listRepositories(organizationId: string): Promise<Repository[]>;
  /** Makes the repository unless one of that name exists; answers it either way. */
  ensureRepository(input: { organizationId: string; name: string; url: string | null; provider: string | null }): Promise<Repository>;
  addDeploy(releaseId: string, deploy: NewDeploy): Promise<Deploy>;
  /** Newest first. */
  listDeploys(releaseId: string): Promise<Deploy[]>;
  /** The newest deploy of each of these releases. */
  lastDeploys(releaseIds: string[]): Promise<Map<string, Deploy>>;
  /** The first commit (newest) of each of these releases. */
  lastCommits(releaseIds: string[]): Promise<Map<string, ReleaseCommit>>;
}

export interface ReleaseActivityRepo {
  /** Every release version telemetry of these projects was sent with, per project. */
  forProjects(projectIds: string[]): Promise<ReleaseActivity[]>;
}

export interface NewBundleFile {
  url: string;
  kind: ArtifactKind;
  debugId: string | null;
  sourceMapRef: string | null;
  bytes: Buffer;
  sha1: string;
}

export interface NewArtifactBundle {
  organizationId: string;
  checksum: string;
  bundleId: string;
  release: string | null;
  dist: string | null;
  projectIds: string[];
  /** The zip's size. */
  size: number;
  files: NewBundleFile[];
}

export interface NewReleaseFile {
  organizationId: string;
  projectId: string;
  release: string;
  dist: string | null;
  name: string;
  kind: ArtifactKind;
  debugId: string | null;
  sourceMapRef: string | null;
  headers: Record<string, string>;
  bytes: Buffer;
  sha1: string;
}

export interface ArtifactStore extends ArtifactLookup {
  /** Stores verified chunks for the organisation (bytes once per SHA-1). */
  putChunks(organizationId: string, chunks: { sha1: string; bytes: Buffer }[]): Promise<void>;
  /** Those of `sha1s` the organisation has not uploaded. */
  missingChunks(organizationId: string, sha1s: string[]): Promise<string[]>;
  bundleByChecksum(organizationId: string, checksum: string): Promise<ArtifactBundle | null>;
  /** Stores the bundle, its projects, files and their bytes all or none; an existing checksum answers the stored bundle. */
  saveBundle(input: NewArtifactBundle): Promise<ArtifactBundle>;
  /** Newest first. */
  listBundles(projectId: string): Promise<ArtifactBundle[]>;
  bundleFiles(bundleId: string): Promise<StoredArtifact[]>;
  deleteBundle(organizationId: string, bundleId: string): Promise<boolean>;
  /** conflict AppError when the project already has this release + dist + name. */
  saveReleaseFile(input: NewReleaseFile): Promise<ReleaseFile>;
  /** The project's files of one release, or (no release) of every release: by release, then name. */
  listReleaseFiles(projectId: string, release?: string): Promise<ReleaseFile[]>;
  deleteReleaseFile(projectId: string, id: string): Promise<boolean>;
}
