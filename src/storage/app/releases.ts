/**
 * Releases, their projects, commits, repositories and deploys (ADR 0011: one statement per
 * check-and-change, several rows at once through `atomically`).
 */
import { sql, type Selectable } from "kysely";
import type { Deploy, Release, ReleaseCommit, Repository } from "../../model";
import type { ReleaseRepo } from "../release-types";
import { rowIdOf, type AppDialect, type AppQueries } from "./dialect";
import type { DeploysTable, ReleasesTable, RepositoriesTable } from "./schema";

const RELEASE_COLUMNS = ["id", "organization_id", "version", "url", "status", "date_created", "date_started", "date_released"] as const;

const toRepository = (row: Selectable<RepositoriesTable>): Repository => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  name: row.name,
  url: row.url,
  provider: row.provider,
  dateCreated: row.date_created,
});

const toDeploy = (row: Selectable<DeploysTable>): Deploy => ({
  id: String(row.id),
  releaseId: String(row.release_id),
  environment: row.environment,
  name: row.name,
  url: row.url,
  dateStarted: row.date_started,
  dateFinished: row.date_finished,
  projectIds: JSON.parse(row.project_ids) as string[],
});

interface CommitRow {
  release_id: number;
  repository: string;
  sha: string;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  timestamp: number | null;
}

const toCommit = (row: CommitRow): ReleaseCommit => ({
  repository: row.repository,
  id: row.sha,
  message: row.message,
  authorName: row.author_name,
  authorEmail: row.author_email,
  timestamp: row.timestamp,
});

const projectIdsOf = (ids: string[]): number[] => [...new Set(ids.map(rowIdOf).filter((id) => id > 0))];

export function appReleases(dialect: AppDialect): ReleaseRepo {
  const { db } = dialect;

  async function withProjects(rows: Selectable<ReleasesTable>[]): Promise<Release[]> {
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom("release_projects")
      .select(["release_id", "project_id"])
      .where("release_id", "in", rows.map((row) => row.id))
      .orderBy("project_id")
      .execute();
    return rows.map((row) => ({
      id: String(row.id),
      organizationId: String(row.organization_id),
      version: row.version,
      url: row.url,
      status: row.status === "archived" ? "archived" : "open",
      dateCreated: row.date_created,
      dateStarted: row.date_started,
      dateReleased: row.date_released,
      projectIds: links.filter((link) => link.release_id === row.id).map((link) => String(link.project_id)),
    }));
  }

  async function get(organizationId: string, version: string): Promise<Release | null> {
    const row = await db
      .selectFrom("releases")
      .select(RELEASE_COLUMNS)
      .where("organization_id", "=", rowIdOf(organizationId))
      .where("version", "=", version)
      .executeTakeFirst();
    return row ? ((await withProjects([row]))[0] ?? null) : null;
  }

  /** Links the projects (of the release's organisation only) to the release named by (organisation, version). */
  function linkProjects(q: AppQueries, organizationId: number, version: string, projectIds: number[]) {
    return q
      .insertInto("release_projects")
      .columns(["release_id", "project_id"])
      .expression(
        q
          .selectFrom("releases as r")
          .innerJoin("projects as p", "p.organization_id", "r.organization_id")
          .select(["r.id", "p.id as project_id"])
          .where("r.organization_id", "=", organizationId)
          .where("r.version", "=", version)
          .where("p.id", "in", projectIds),
      )
      .onConflict((conflict) => conflict.columns(["release_id", "project_id"]).doNothing());
  }

  async function commitsOf(releaseIds: number[]): Promise<CommitRow[]> {
    if (releaseIds.length === 0) return [];
    return db
      .selectFrom("release_commits as c")
      .innerJoin("repositories as r", "r.id", "c.repository_id")
      .select(["c.release_id", "r.name as repository", "c.sha", "c.message", "c.author_name", "c.author_email", "c.timestamp"])
      .where("c.release_id", "in", releaseIds)
      .orderBy("c.release_id")
      .orderBy("c.position")
      .execute();
  }

  return {
    async create(input) {
      const organizationId = rowIdOf(input.organizationId);
      const projectIds = projectIdsOf(input.projectIds);
      const existed = await get(input.organizationId, input.version);
      const statements = [
        db
          .insertInto("releases")
          .values({
            organization_id: organizationId,
            version: input.version,
            url: input.url,
            date_created: Date.now(),
            date_started: input.dateStarted,
            date_released: input.dateReleased,
          })
          .onConflict((conflict) => conflict.columns(["organization_id", "version"]).doNothing()),
      ];
      await dialect.atomically(projectIds.length > 0 ? [...statements, linkProjects(db, organizationId, input.version, projectIds)] : statements);
      const release = await get(input.organizationId, input.version);
      if (!release) throw new Error(`release ${input.version} vanished as it was made`);
      return { release, created: existed === null };
    },

    get,

    async list(organizationId, { projectIds, query, limit }) {
      let select = db
        .selectFrom("releases")
        .select(RELEASE_COLUMNS)
        .where("organization_id", "=", rowIdOf(organizationId));
      if (projectIds) {
        const ids = projectIdsOf(projectIds);
        if (ids.length === 0) return [];
        select = select.where("id", "in", db.selectFrom("release_projects").select("release_id").where("project_id", "in", ids));
      }
      if (query) {
        const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        select = select.where(sql<boolean>`lower(version) like ${pattern} escape '\\'`);
      }
      const rows = await select.orderBy("date_created", "desc").orderBy("id", "desc").limit(limit).execute();
      return withProjects(rows);
    },

    async update(organizationId, version, changes) {
      const orgId = rowIdOf(organizationId);
      const set: { url?: string | null; date_released?: number | null; status?: string } = {};
      if (changes.url !== undefined) set.url = changes.url;
      if (changes.dateReleased !== undefined) set.date_released = changes.dateReleased;
      if (changes.status !== undefined) set.status = changes.status;
      const statements = [];
      if (Object.keys(set).length > 0) {
        statements.push(db.updateTable("releases").set(set).where("organization_id", "=", orgId).where("version", "=", version));
      }
      const projectIds = projectIdsOf(changes.projectIds ?? []);
      if (projectIds.length > 0) statements.push(linkProjects(db, orgId, version, projectIds));
      if (statements.length > 0) await dialect.atomically(statements);
      return get(organizationId, version);
    },

    async delete(organizationId, version) {
      const result = await db
        .deleteFrom("releases")
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("version", "=", version)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async setCommits(release, commits) {
      const releaseId = rowIdOf(release.id);
      const organizationId = rowIdOf(release.organizationId);
      const now = Date.now();
      const repositories = [...new Set(commits.map((commit) => commit.repository))];
      const statements = [
        ...repositories.map((name) =>
          db
            .insertInto("repositories")
            .values({ organization_id: organizationId, name, url: null, provider: null, date_created: now })
            .onConflict((conflict) => conflict.columns(["organization_id", "name"]).doNothing()),
        ),
        db.deleteFrom("release_commits").where("release_id", "=", releaseId),
        // One statement per commit: the repository's id comes from a subquery (nothing is returned inside `atomically`).
        ...commits.map((commit, position) =>
          db
            .insertInto("release_commits")
            .columns(["release_id", "repository_id", "sha", "position", "message", "author_name", "author_email", "timestamp"])
            .expression(
              db
                .selectFrom("repositories")
                .select([
                  sql<number>`cast(${releaseId} as bigint)`.as("release_id"),
                  "id",
                  sql<string>`cast(${commit.id} as text)`.as("sha"),
                  sql<number>`cast(${position} as integer)`.as("position"),
                  sql<string | null>`cast(${commit.message} as text)`.as("message"),
                  sql<string | null>`cast(${commit.authorName} as text)`.as("author_name"),
                  sql<string | null>`cast(${commit.authorEmail} as text)`.as("author_email"),
                  sql<number | null>`cast(${commit.timestamp} as bigint)`.as("timestamp"),
                ])
                .where("organization_id", "=", organizationId)
                .where("name", "=", commit.repository),
            )
            .onConflict((conflict) => conflict.columns(["release_id", "repository_id", "sha"]).doNothing()),
        ),
      ];
      await dialect.atomically(statements);
    },

    async listCommits(releaseId) {
      return (await commitsOf([rowIdOf(releaseId)])).map(toCommit);
    },

    async previousWithCommits(release) {
      const row = await db
        .selectFrom("releases")
        .select(RELEASE_COLUMNS)
        .where("organization_id", "=", rowIdOf(release.organizationId))
        .where("id", "<>", rowIdOf(release.id))
        .where("date_created", "<=", release.dateCreated)
        .where("id", "in", db.selectFrom("release_commits").select("release_id"))
        .orderBy("date_created", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      const [previous] = await withProjects([row]);
      const [first] = await commitsOf([row.id]);
      return previous && first ? { release: previous, lastCommit: toCommit(first) } : null;
    },

    async listRepositories(organizationId) {
      const rows = await db.selectFrom("repositories").selectAll().where("organization_id", "=", rowIdOf(organizationId)).orderBy("name").execute();
      return rows.map(toRepository);
    },

    async ensureRepository({ organizationId, name, url, provider }) {
      const orgId = rowIdOf(organizationId);
      await db
        .insertInto("repositories")
        .values({ organization_id: orgId, name, url, provider, date_created: Date.now() })
        .onConflict((conflict) => conflict.columns(["organization_id", "name"]).doNothing())
        .execute();
      const row = await db.selectFrom("repositories").selectAll().where("organization_id", "=", orgId).where("name", "=", name).executeTakeFirstOrThrow();
      return toRepository(row);
    },

    async addDeploy(releaseId, deploy) {
      const row = await db
        .insertInto("deploys")
        .values({
          release_id: rowIdOf(releaseId),
          environment: deploy.environment,
          name: deploy.name,
          url: deploy.url,
          date_started: deploy.dateStarted,
          date_finished: deploy.dateFinished,
          project_ids: JSON.stringify(deploy.projectIds),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toDeploy(row);
    },

    async listDeploys(releaseId) {
      const rows = await db
        .selectFrom("deploys")
        .selectAll()
        .where("release_id", "=", rowIdOf(releaseId))
        .orderBy("date_finished", "desc")
        .orderBy("id", "desc")
        .execute();
      return rows.map(toDeploy);
    },

    async lastDeploys(releaseIds) {
      const ids = releaseIds.map(rowIdOf);
      const last = new Map<string, Deploy>();
      if (ids.length === 0) return last;
      const rows = await db.selectFrom("deploys").selectAll().where("release_id", "in", ids).orderBy("date_finished", "desc").orderBy("id", "desc").execute();
      for (const row of rows) if (!last.has(String(row.release_id))) last.set(String(row.release_id), toDeploy(row));
      return last;
    },

    async lastCommits(releaseIds) {
      const last = new Map<string, ReleaseCommit>();
      for (const row of await commitsOf(releaseIds.map(rowIdOf))) {
        if (!last.has(String(row.release_id))) last.set(String(row.release_id), toCommit(row));
      }
      return last;
    },
  };
}
