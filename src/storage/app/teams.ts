import type { Selectable } from "kysely";
import type { Team } from "../../model";
import { AppError } from "../../errors";
import type { TeamRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import { selectMembersWithUsers, toMemberWithUser } from "./members";
import type { TeamsTable } from "./schema";

const toTeam = (row: Selectable<TeamsTable>): Team => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  slug: row.slug,
  name: row.name,
  dateCreated: row.date_created,
});

export function appTeams(dialect: AppDialect): TeamRepo {
  const { db } = dialect;
  const select = () => db.selectFrom("teams as t").select(["t.id", "t.organization_id", "t.slug", "t.name", "t.date_created"]);
  const projectIds = (rows: { project_id: number }[]) => rows.map((row) => String(row.project_id));
  // Every team of the organisation is a key (teams without links get []), ids ascending: one query
  // for the whole page instead of one per team.
  const idsByTeam = (rows: { team_id: number; linked_id: number | null }[]) => {
    const byTeam = new Map<string, string[]>();
    for (const row of rows) {
      const ids = byTeam.get(String(row.team_id)) ?? [];
      if (row.linked_id !== null) ids.push(String(row.linked_id));
      byTeam.set(String(row.team_id), ids);
    }
    return byTeam;
  };
  return {
    async create({ organizationId, slug, name }) {
      try {
        const row = await db
          .insertInto("teams")
          .values({ organization_id: rowIdOf(organizationId), slug, name, date_created: Date.now() })
          .returning(["id", "organization_id", "slug", "name", "date_created"])
          .executeTakeFirstOrThrow();
        return toTeam(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: `the team slug ${slug} is taken in this organisation`, missing: `no organisation ${organizationId}` });
      }
    },
    async getById(id) {
      const row = await select().where("t.id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? toTeam(row) : null;
    },
    async getBySlug(organizationId, slug) {
      const row = await select().where("t.organization_id", "=", rowIdOf(organizationId)).where("t.slug", "=", slug).executeTakeFirst();
      return row ? toTeam(row) : null;
    },
    async listByOrganization(organizationId) {
      return (await select().where("t.organization_id", "=", rowIdOf(organizationId)).orderBy("t.slug").execute()).map(toTeam);
    },
    async addMember(teamId, memberId) {
      const [team, member] = [rowIdOf(teamId), rowIdOf(memberId)];
      // Only a member and a team of the same organisation are linked: no row is inserted otherwise.
      const added = await db
        .insertInto("team_members")
        .columns(["team_id", "member_id"])
        .expression((eb) =>
          eb
            .selectFrom("teams as t")
            .innerJoin("members as m", "m.organization_id", "t.organization_id")
            .select(["t.id as team_id", "m.id as member_id"])
            .where("t.id", "=", team)
            .where("m.id", "=", member),
        )
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      if (added.numInsertedOrUpdatedRows === 0n && !(await db.selectFrom("team_members").select("team_id").where("team_id", "=", team).where("member_id", "=", member).executeTakeFirst())) {
        throw new AppError("not_found", `no team ${teamId} with member ${memberId} in one organisation`);
      }
    },
    async removeMember(teamId, memberId) {
      await db.deleteFrom("team_members").where("team_id", "=", rowIdOf(teamId)).where("member_id", "=", rowIdOf(memberId)).execute();
    },
    async listMembers(teamId) {
      const rows = await selectMembersWithUsers(db)
        .innerJoin("team_members as tm", "tm.member_id", "m.id")
        .where("tm.team_id", "=", rowIdOf(teamId))
        .orderBy("u.email")
        .execute();
      return rows.map(toMemberWithUser);
    },
    async listForMember(memberId) {
      const rows = await select().innerJoin("team_members as tm", "tm.team_id", "t.id").where("tm.member_id", "=", rowIdOf(memberId)).orderBy("t.slug").execute();
      return rows.map(toTeam);
    },
    async addProject(teamId, projectId) {
      const [team, project] = [rowIdOf(teamId), rowIdOf(projectId)];
      const added = await db
        .insertInto("team_projects")
        .columns(["team_id", "project_id"])
        .expression((eb) =>
          eb
            .selectFrom("teams as t")
            .innerJoin("projects as p", "p.organization_id", "t.organization_id")
            .select(["t.id as team_id", "p.id as project_id"])
            .where("t.id", "=", team)
            .where("p.id", "=", project),
        )
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      if (added.numInsertedOrUpdatedRows === 0n && !(await db.selectFrom("team_projects").select("team_id").where("team_id", "=", team).where("project_id", "=", project).executeTakeFirst())) {
        throw new AppError("not_found", `no team ${teamId} with project ${projectId} in one organisation`);
      }
    },
    async removeProject(teamId, projectId) {
      await db.deleteFrom("team_projects").where("team_id", "=", rowIdOf(teamId)).where("project_id", "=", rowIdOf(projectId)).execute();
    },
    async listProjectIds(teamId) {
      return projectIds(await db.selectFrom("team_projects").select("project_id").where("team_id", "=", rowIdOf(teamId)).orderBy("project_id").execute());
    },
    async listForProject(projectId) {
      const rows = await select().innerJoin("team_projects as tp", "tp.team_id", "t.id").where("tp.project_id", "=", rowIdOf(projectId)).orderBy("t.slug").execute();
      return rows.map(toTeam);
    },
    async memberIdsByTeam(organizationId) {
      const rows = await db
        .selectFrom("teams as t")
        .leftJoin("team_members as tm", "tm.team_id", "t.id")
        .select(["t.id as team_id", "tm.member_id as linked_id"])
        .where("t.organization_id", "=", rowIdOf(organizationId))
        .orderBy("t.id")
        .orderBy("tm.member_id")
        .execute();
      return idsByTeam(rows);
    },
    async projectIdsByTeam(organizationId) {
      const rows = await db
        .selectFrom("teams as t")
        .leftJoin("team_projects as tp", "tp.team_id", "t.id")
        .select(["t.id as team_id", "tp.project_id as linked_id"])
        .where("t.organization_id", "=", rowIdOf(organizationId))
        .orderBy("t.id")
        .orderBy("tp.project_id")
        .execute();
      return idsByTeam(rows);
    },
    async projectIdsForMember(memberId) {
      const rows = await db
        .selectFrom("team_members as tm")
        .innerJoin("team_projects as tp", "tp.team_id", "tm.team_id")
        .select("tp.project_id")
        .distinct()
        .where("tm.member_id", "=", rowIdOf(memberId))
        .orderBy("tp.project_id")
        .execute();
      return projectIds(rows);
    },
  };
}
