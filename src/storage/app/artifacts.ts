/**
 * Source-map artifacts: chunks, artifact bundles with their manifest, and release files; plus the
 * `ArtifactLookup` reads the source-map resolver makes. Bytes go to the engine's blob
 * store (blobs.ts); a bundle's rows and (on PostgreSQL) bytes are written all or none.
 */
import { sql, type Selectable } from "kysely";
import type { ArtifactBundle, ArtifactKind, ReleaseFile, StoredArtifact } from "../../model";
import type { ArtifactStore } from "../release-types";
import type { BlobStore } from "./blobs";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { ArtifactBundlesTable, ReleaseFilesTable } from "./schema";

const KINDS: readonly ArtifactKind[] = ["minified_source", "source_map", "source", "other"];
const kindOf = (value: string): ArtifactKind => KINDS.find((kind) => kind === value) ?? "other";

const toReleaseFile = (row: Selectable<ReleaseFilesTable>): ReleaseFile => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  projectId: String(row.project_id),
  release: row.release,
  dist: row.dist === "" ? null : row.dist,
  name: row.name,
  kind: kindOf(row.kind),
  debugId: row.debug_id,
  sha1: row.sha1,
  size: row.size,
  headers: JSON.parse(row.headers) as Record<string, string>,
  dateCreated: row.date_created,
});

const releaseFileArtifact = (row: Selectable<ReleaseFilesTable>): StoredArtifact => ({
  sha1: row.sha1,
  url: row.name,
  kind: kindOf(row.kind),
  debugId: row.debug_id,
  sourceMapRef: row.source_map_ref,
  size: row.size,
  origin: { kind: "release_file", release: row.release, dist: row.dist === "" ? null : row.dist },
});

interface BundleFileRow {
  url: string;
  kind: string;
  debug_id: string | null;
  source_map_ref: string | null;
  sha1: string;
  size: number;
  bundle_id: string;
}

const bundleFileArtifact = (row: BundleFileRow): StoredArtifact => ({
  sha1: row.sha1,
  url: row.url,
  kind: kindOf(row.kind),
  debugId: row.debug_id,
  sourceMapRef: row.source_map_ref,
  size: row.size,
  origin: { kind: "bundle", bundleId: row.bundle_id },
});

const BUNDLE_FILE_COLUMNS = ["f.url", "f.kind", "f.debug_id", "f.source_map_ref", "f.sha1", "f.size", "b.bundle_id"] as const;

export function appArtifacts(dialect: AppDialect, blobs: BlobStore): ArtifactStore {
  const { db } = dialect;

  async function withProjects(rows: Selectable<ArtifactBundlesTable>[]): Promise<ArtifactBundle[]> {
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom("artifact_bundle_projects")
      .select(["bundle_id", "project_id"])
      .where("bundle_id", "in", rows.map((row) => row.id))
      .orderBy("project_id")
      .execute();
    return rows.map((row) => ({
      id: String(row.id),
      organizationId: String(row.organization_id),
      checksum: row.checksum,
      bundleId: row.bundle_id,
      release: row.release,
      dist: row.dist,
      fileCount: row.file_count,
      size: row.size,
      dateUploaded: row.date_uploaded,
      projectIds: links.filter((link) => link.bundle_id === row.id).map((link) => String(link.project_id)),
    }));
  }

  async function bundleByChecksum(organizationId: string, checksum: string): Promise<ArtifactBundle | null> {
    const row = await db
      .selectFrom("artifact_bundles")
      .selectAll()
      .where("organization_id", "=", rowIdOf(organizationId))
      .where("checksum", "=", checksum)
      .executeTakeFirst();
    return row ? ((await withProjects([row]))[0] ?? null) : null;
  }

  /** Bundle files visible to the project (through artifact_bundle_projects). */
  const bundleFilesOfProject = (projectId: string) =>
    db
      .selectFrom("artifact_bundle_files as f")
      .innerJoin("artifact_bundles as b", "b.id", "f.bundle_id")
      .innerJoin("artifact_bundle_projects as p", "p.bundle_id", "b.id")
      .select(BUNDLE_FILE_COLUMNS)
      .where("p.project_id", "=", rowIdOf(projectId));

  return {
    async putChunks(organizationId, chunks) {
      if (chunks.length === 0) return;
      const staged = await blobs.stage(chunks);
      const now = Date.now();
      await dialect.atomically([
        ...staged,
        db
          .insertInto("artifact_chunks")
          .values(chunks.map(({ sha1, bytes }) => ({ organization_id: rowIdOf(organizationId), sha1, size: bytes.length, date_uploaded: now })))
          .onConflict((conflict) => conflict.columns(["organization_id", "sha1"]).doNothing()),
      ]);
    },

    async missingChunks(organizationId, sha1s) {
      if (sha1s.length === 0) return [];
      const present = await db
        .selectFrom("artifact_chunks")
        .select("sha1")
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("sha1", "in", [...new Set(sha1s)])
        .execute();
      const have = new Set(present.map((row) => row.sha1));
      return [...new Set(sha1s)].filter((sha1) => !have.has(sha1));
    },

    bundleByChecksum,

    async saveBundle(input) {
      const organizationId = rowIdOf(input.organizationId);
      const existing = await bundleByChecksum(input.organizationId, input.checksum);
      if (existing) return existing;
      const unique = new Map(input.files.map((file) => [file.sha1, file.bytes]));
      const staged = await blobs.stage([...unique].map(([sha1, bytes]) => ({ sha1, bytes })));
      const theBundle = () =>
        db
          .selectFrom("artifact_bundles")
          .where("artifact_bundles.organization_id", "=", organizationId)
          .where("artifact_bundles.checksum", "=", input.checksum);
      const projectIds = [...new Set(input.projectIds.map(rowIdOf))];
      try {
        await dialect.atomically([
          ...staged,
          db
            .insertInto("artifact_bundles")
            .values({
              organization_id: organizationId,
              checksum: input.checksum,
              bundle_id: input.bundleId,
              release: input.release,
              dist: input.dist,
              file_count: input.files.length,
              size: input.size,
              date_uploaded: Date.now(),
            }),
          db
            .insertInto("artifact_bundle_projects")
            .columns(["bundle_id", "project_id"])
            .expression(
              theBundle()
                .innerJoin("projects as p", "p.organization_id", "artifact_bundles.organization_id")
                .select(["artifact_bundles.id", "p.id as project_id"])
                .where("p.id", "in", projectIds.length > 0 ? projectIds : [-1]),
            ),
          ...input.files.map((file) =>
            db
              .insertInto("artifact_bundle_files")
              .columns(["bundle_id", "url", "kind", "debug_id", "source_map_ref", "sha1", "size"])
              .expression(
                theBundle().select([
                  "artifact_bundles.id",
                  sql<string>`cast(${file.url} as text)`.as("url"),
                  sql<string>`cast(${file.kind} as text)`.as("kind"),
                  sql<string | null>`cast(${file.debugId} as text)`.as("debug_id"),
                  sql<string | null>`cast(${file.sourceMapRef} as text)`.as("source_map_ref"),
                  sql<string>`cast(${file.sha1} as text)`.as("sha1"),
                  sql<number>`cast(${file.bytes.length} as bigint)`.as("size"),
                ]),
              )
              // Two manifest entries for one URL: the first wins.
              .onConflict((conflict) => conflict.columns(["bundle_id", "url"]).doNothing()),
          ),
        ]);
      } catch (error) {
        // The same bundle assembled concurrently: the other request stored it.
        if (dialect.constraintKind(error) !== "unique") throw error;
      }
      const saved = await bundleByChecksum(input.organizationId, input.checksum);
      if (!saved) throw new Error(`artifact bundle ${input.checksum} vanished as it was stored`);
      return saved;
    },

    async listBundles(projectId) {
      const rows = await db
        .selectFrom("artifact_bundles")
        .selectAll()
        .where("id", "in", db.selectFrom("artifact_bundle_projects").select("bundle_id").where("project_id", "=", rowIdOf(projectId)))
        .orderBy("date_uploaded", "desc")
        .orderBy("id", "desc")
        .execute();
      return withProjects(rows);
    },

    async bundleFiles(bundleId) {
      const rows = await db
        .selectFrom("artifact_bundle_files as f")
        .innerJoin("artifact_bundles as b", "b.id", "f.bundle_id")
        .select(BUNDLE_FILE_COLUMNS)
        .where("b.id", "=", rowIdOf(bundleId))
        .orderBy("f.url")
        .execute();
      return rows.map(bundleFileArtifact);
    },

    async deleteBundle(organizationId, bundleId) {
      const result = await db
        .deleteFrom("artifact_bundles")
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("id", "=", rowIdOf(bundleId))
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async saveReleaseFile(input) {
      const staged = await blobs.stage([{ sha1: input.sha1, bytes: input.bytes }]);
      const values = {
        organization_id: rowIdOf(input.organizationId),
        project_id: rowIdOf(input.projectId),
        release: input.release,
        dist: input.dist ?? "",
        name: input.name,
        kind: input.kind,
        debug_id: input.debugId,
        source_map_ref: input.sourceMapRef,
        sha1: input.sha1,
        size: input.bytes.length,
        headers: JSON.stringify(input.headers),
        date_created: Date.now(),
      };
      try {
        await dialect.atomically([...staged, db.insertInto("release_files").values(values)]);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: `a file named ${input.name} already exists for release ${input.release}${input.dist ? ` (dist ${input.dist})` : ""}`, missing: `no project ${input.projectId}` });
      }
      const row = await db
        .selectFrom("release_files")
        .selectAll()
        .where("project_id", "=", values.project_id)
        .where("release", "=", values.release)
        .where("dist", "=", values.dist)
        .where("name", "=", values.name)
        .executeTakeFirstOrThrow();
      return toReleaseFile(row);
    },

    async listReleaseFiles(projectId, release) {
      let query = db.selectFrom("release_files").selectAll().where("project_id", "=", rowIdOf(projectId));
      if (release !== undefined) query = query.where("release", "=", release);
      const rows = await query
        .orderBy("release")
        .orderBy("name")
        .orderBy("dist")
        .execute();
      return rows.map(toReleaseFile);
    },

    async deleteReleaseFile(projectId, id) {
      const result = await db.deleteFrom("release_files").where("project_id", "=", rowIdOf(projectId)).where("id", "=", rowIdOf(id)).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    // ArtifactLookup ------------------------------------------------------------------------------

    async byDebugId(projectId, debugId) {
      const rows = await bundleFilesOfProject(projectId)
        .where("f.debug_id", "=", debugId.toLowerCase())
        .orderBy("b.date_uploaded", "desc")
        .orderBy("b.id", "desc")
        .orderBy("f.url")
        .execute();
      return rows.map(bundleFileArtifact);
    },

    async byReleaseUrl(projectId, release, dist, urls) {
      if (urls.length === 0) return [];
      let bundles = bundleFilesOfProject(projectId).where("b.release", "=", release).where("f.url", "in", urls);
      bundles = dist === null ? bundles.where("b.dist", "is", null) : bundles.where("b.dist", "=", dist);
      const [fromFiles, fromBundles] = await Promise.all([
        db
          .selectFrom("release_files")
          .selectAll()
          .where("project_id", "=", rowIdOf(projectId))
          .where("release", "=", release)
          .where("dist", "=", dist ?? "")
          .where("name", "in", urls)
          .orderBy("name")
          .execute(),
        bundles.orderBy("b.date_uploaded", "desc").orderBy("b.id", "desc").orderBy("f.url").execute(),
      ]);
      return [...fromFiles.map(releaseFileArtifact), ...fromBundles.map(bundleFileArtifact)];
    },

    content: (sha1) => blobs.read(sha1),

    async hasArtifacts(projectId) {
      const id = rowIdOf(projectId);
      const row = await db
        .selectNoFrom((eb) => [
          eb.exists(eb.selectFrom("artifact_bundle_projects").select("bundle_id").where("project_id", "=", id)).as("bundles"),
          eb.exists(eb.selectFrom("release_files").select("id").where("project_id", "=", id)).as("files"),
        ])
        .executeTakeFirstOrThrow();
      // SQLite answers 0/1, PostgreSQL a boolean.
      return Boolean(row.bundles) || Boolean(row.files);
    },
  };
}
