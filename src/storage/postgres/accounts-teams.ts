import { AppError } from "../../errors";
import {
  MEMBER_COLUMNS,
  SELECT_MEMBER_WITH_USER,
  TEAM_COLUMNS,
  TEAM_COLUMNS_T,
  idsByTeam,
  rethrowConstraint,
  rowIdOf,
  toMember,
  toMemberWithUser,
  toTeam,
  type MemberRow,
  type MemberWithUserRow,
  type TeamRow,
} from "../account-rows";
import type { MemberRepo, TeamRepo } from "../accounts-types";
import { LAST_OWNER_MESSAGE } from "../account-rows";
import { affected, constraintKind, type PgDb, type Queryable } from "./db";

export function postgresMembers(db: PgDb): MemberRepo {
  const one = async (sql: string, params: readonly (string | number | null)[]) => {
    const [row] = await db.query<MemberRow>(sql, params);
    return row ? toMember(row) : null;
  };
  /**
   * Locks the organisation's owner rows before counting them: two concurrent changes (each removing
   * "the other" owner) then run one after the other, and the second sees the first's result.
   */
  const changeKeepingAnOwner = <T>(memberId: string, losesOwner: boolean, change: (tx: Queryable) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      const [member] = await tx.query<{ organization_id: number; role: string }>("SELECT organization_id, role FROM members WHERE id = $1", [rowIdOf(memberId)]);
      if (member && losesOwner && member.role === "owner") {
        const owners = await tx.query<{ id: number }>(
          "SELECT id FROM members WHERE organization_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE",
          [member.organization_id],
        );
        if (owners.length <= 1) throw new AppError("conflict", LAST_OWNER_MESSAGE);
      }
      return change(tx);
    });
  return {
    async add({ organizationId, userId, role }) {
      try {
        const [row] = await db.query<MemberRow>(
          `INSERT INTO members (organization_id, user_id, role, date_created) VALUES ($1, $2, $3, $4) RETURNING ${MEMBER_COLUMNS}`,
          [rowIdOf(organizationId), rowIdOf(userId), role, Date.now()],
        );
        return toMember(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), {
          unique: `user ${userId} is already a member of organisation ${organizationId}`,
          missing: `no organisation ${organizationId} or user ${userId}`,
        });
      }
    },
    async get(organizationId, userId) {
      return one(`SELECT ${MEMBER_COLUMNS} FROM members WHERE organization_id = $1 AND user_id = $2`, [rowIdOf(organizationId), rowIdOf(userId)]);
    },
    async getById(id) {
      return one(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1`, [rowIdOf(id)]);
    },
    async listByOrganization(organizationId) {
      const rows = await db.query<MemberWithUserRow>(`${SELECT_MEMBER_WITH_USER} WHERE m.organization_id = $1 ORDER BY u.email`, [rowIdOf(organizationId)]);
      return rows.map(toMemberWithUser);
    },
    async listForUser(userId) {
      return (await db.query<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE user_id = $1 ORDER BY id`, [rowIdOf(userId)])).map(toMember);
    },
    async setRole(memberId, role) {
      return changeKeepingAnOwner(memberId, role !== "owner", async (tx) => {
        const [row] = await tx.query<MemberRow>(`UPDATE members SET role = $1 WHERE id = $2 RETURNING ${MEMBER_COLUMNS}`, [role, rowIdOf(memberId)]);
        return row ? toMember(row) : null;
      });
    },
    async remove(memberId) {
      // Team memberships go with the member (ON DELETE CASCADE).
      await changeKeepingAnOwner(memberId, true, (tx) => tx.query("DELETE FROM members WHERE id = $1", [rowIdOf(memberId)]));
    },
    async countOwners(organizationId) {
      const [row] = await db.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM members WHERE organization_id = $1 AND role = 'owner'",
        [rowIdOf(organizationId)],
      );
      return row?.n ?? 0;
    },
    async transferOwnership(fromMemberId, toMemberId) {
      const [from, to] = [rowIdOf(fromMemberId), rowIdOf(toMemberId)];
      await db.transaction(async (tx) => {
        // Both rows locked, in id order (as any other transfer locks them), before either changes.
        const rows = await tx.query<MemberRow>(
          `SELECT ${MEMBER_COLUMNS} FROM members WHERE id IN ($1, $2) ORDER BY id FOR UPDATE`,
          [from, to],
        );
        const [giver, taker] = [rows.find((row) => row.id === from), rows.find((row) => row.id === to)];
        if (!giver || !taker) throw new AppError("not_found", "no such member");
        if (giver.organization_id !== taker.organization_id) throw new AppError("bad_request", "the members belong to different organisations");
        await tx.query("UPDATE members SET role = 'owner' WHERE id = $1", [to]);
        await tx.query("UPDATE members SET role = 'admin' WHERE id = $1", [from]);
      });
    },
  };
}

export function postgresTeams(db: PgDb): TeamRepo {
  const teams = async (sql: string, params: readonly (string | number | null)[]) => (await db.query<TeamRow>(sql, params)).map(toTeam);
  const projectIds = async (sql: string, id: string) =>
    (await db.query<{ project_id: number }>(sql, [rowIdOf(id)])).map((row) => String(row.project_id));
  return {
    async create({ organizationId, slug, name }) {
      try {
        const [row] = await db.query<TeamRow>(
          `INSERT INTO teams (organization_id, slug, name, date_created) VALUES ($1, $2, $3, $4) RETURNING ${TEAM_COLUMNS}`,
          [rowIdOf(organizationId), slug, name, Date.now()],
        );
        return toTeam(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), {
          unique: `the team slug ${slug} is taken in this organisation`,
          missing: `no organisation ${organizationId}`,
        });
      }
    },
    async getById(id) {
      return (await teams(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = $1`, [rowIdOf(id)]))[0] ?? null;
    },
    async getBySlug(organizationId, slug) {
      return (await teams(`SELECT ${TEAM_COLUMNS} FROM teams WHERE organization_id = $1 AND slug = $2`, [rowIdOf(organizationId), slug]))[0] ?? null;
    },
    async listByOrganization(organizationId) {
      return teams(`SELECT ${TEAM_COLUMNS} FROM teams WHERE organization_id = $1 ORDER BY slug`, [rowIdOf(organizationId)]);
    },
    async addMember(teamId, memberId) {
      // Only a member and a team of the same organisation are linked: no row is inserted otherwise.
      const params = [rowIdOf(teamId), rowIdOf(memberId)];
      const added = await affected(
        db,
        `INSERT INTO team_members (team_id, member_id)
         SELECT t.id, m.id FROM teams t JOIN members m ON m.organization_id = t.organization_id WHERE t.id = $1 AND m.id = $2
         ON CONFLICT DO NOTHING`,
        params,
      );
      if (added === 0 && (await db.query("SELECT 1 FROM team_members WHERE team_id = $1 AND member_id = $2", params)).length === 0) {
        throw new AppError("not_found", `no team ${teamId} with member ${memberId} in one organisation`);
      }
    },
    async removeMember(teamId, memberId) {
      await db.query("DELETE FROM team_members WHERE team_id = $1 AND member_id = $2", [rowIdOf(teamId), rowIdOf(memberId)]);
    },
    async listMembers(teamId) {
      const rows = await db.query<MemberWithUserRow>(
        `${SELECT_MEMBER_WITH_USER} JOIN team_members tm ON tm.member_id = m.id WHERE tm.team_id = $1 ORDER BY u.email`,
        [rowIdOf(teamId)],
      );
      return rows.map(toMemberWithUser);
    },
    async listForMember(memberId) {
      return teams(
        `SELECT ${TEAM_COLUMNS_T} FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE tm.member_id = $1 ORDER BY t.slug`,
        [rowIdOf(memberId)],
      );
    },
    async addProject(teamId, projectId) {
      const params = [rowIdOf(teamId), rowIdOf(projectId)];
      const added = await affected(
        db,
        `INSERT INTO team_projects (team_id, project_id)
         SELECT t.id, p.id FROM teams t JOIN projects p ON p.organization_id = t.organization_id WHERE t.id = $1 AND p.id = $2
         ON CONFLICT DO NOTHING`,
        params,
      );
      if (added === 0 && (await db.query("SELECT 1 FROM team_projects WHERE team_id = $1 AND project_id = $2", params)).length === 0) {
        throw new AppError("not_found", `no team ${teamId} with project ${projectId} in one organisation`);
      }
    },
    async removeProject(teamId, projectId) {
      await db.query("DELETE FROM team_projects WHERE team_id = $1 AND project_id = $2", [rowIdOf(teamId), rowIdOf(projectId)]);
    },
    async listProjectIds(teamId) {
      return projectIds("SELECT project_id FROM team_projects WHERE team_id = $1 ORDER BY project_id", teamId);
    },
    async listForProject(projectId) {
      return teams(
        `SELECT ${TEAM_COLUMNS_T} FROM teams t JOIN team_projects tp ON tp.team_id = t.id WHERE tp.project_id = $1 ORDER BY t.slug`,
        [rowIdOf(projectId)],
      );
    },
    async projectIdsForMember(memberId) {
      return projectIds(
        `SELECT DISTINCT tp.project_id FROM team_members tm JOIN team_projects tp ON tp.team_id = tm.team_id
         WHERE tm.member_id = $1 ORDER BY tp.project_id`,
        memberId,
      );
    },
    async memberIdsByTeam(organizationId) {
      const rows = await db.query<{ team_id: number; linked_id: number | null }>(
        `SELECT t.id AS team_id, tm.member_id AS linked_id FROM teams t LEFT JOIN team_members tm ON tm.team_id = t.id
         WHERE t.organization_id = $1 ORDER BY t.id, tm.member_id`,
        [rowIdOf(organizationId)],
      );
      return idsByTeam(rows);
    },
    async projectIdsByTeam(organizationId) {
      const rows = await db.query<{ team_id: number; linked_id: number | null }>(
        `SELECT t.id AS team_id, tp.project_id AS linked_id FROM teams t LEFT JOIN team_projects tp ON tp.team_id = t.id
         WHERE t.organization_id = $1 ORDER BY t.id, tp.project_id`,
        [rowIdOf(organizationId)],
      );
      return idsByTeam(rows);
    },
  };
}
