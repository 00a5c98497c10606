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
import { LAST_OWNER_MESSAGE } from "../account-rows";
import type { MemberRepo, TeamRepo } from "../accounts-types";
import { constraintKind, type Db } from "./db";

type Id = number | null;

export function sqliteMembers(db: Db): MemberRepo {
  const insert = db.prepare<[Id, Id, string, number], MemberRow>(
    `INSERT INTO members (organization_id, user_id, role, date_created) VALUES (?, ?, ?, ?) RETURNING ${MEMBER_COLUMNS}`,
  );
  const byUser = db.prepare<[Id, Id], MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE organization_id = ? AND user_id = ?`);
  const byId = db.prepare<[Id], MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ?`);
  const byOrganization = db.prepare<[Id], MemberWithUserRow>(`${SELECT_MEMBER_WITH_USER} WHERE m.organization_id = ? ORDER BY u.email`);
  const forUser = db.prepare<[Id], MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE user_id = ? ORDER BY id`);
  const setRole = db.prepare<[string, Id], MemberRow>(`UPDATE members SET role = ? WHERE id = ? RETURNING ${MEMBER_COLUMNS}`);
  // Team memberships go with the member (ON DELETE CASCADE).
  const remove = db.prepare<[Id]>("DELETE FROM members WHERE id = ?");
  const owners = db.prepare<[Id], { n: number }>("SELECT COUNT(*) AS n FROM members WHERE organization_id = ? AND role = 'owner'");
  /** Check and change in one immediate transaction, so no two changes can both remove "the other" owner. */
  const changeKeepingAnOwner = <T>(memberId: string, losesOwner: boolean, change: () => T): T =>
    db
      .transaction(() => {
        const member = byId.get(rowIdOf(memberId));
        if (member && losesOwner && member.role === "owner" && owners.get(member.organization_id)!.n <= 1) {
          throw new AppError("conflict", LAST_OWNER_MESSAGE);
        }
        return change();
      })
      .immediate();
  const transfer = db.transaction((from: Id, to: Id) => {
    const [giver, taker] = [byId.get(from), byId.get(to)];
    if (!giver || !taker) throw new AppError("not_found", "no such member");
    if (giver.organization_id !== taker.organization_id) throw new AppError("bad_request", "the members belong to different organisations");
    setRole.get("owner", to);
    setRole.get("admin", from);
  });
  return {
    async add({ organizationId, userId, role }) {
      try {
        return toMember(insert.get(rowIdOf(organizationId), rowIdOf(userId), role, Date.now())!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), {
          unique: `user ${userId} is already a member of organisation ${organizationId}`,
          missing: `no organisation ${organizationId} or user ${userId}`,
        });
      }
    },
    async get(organizationId, userId) {
      const row = byUser.get(rowIdOf(organizationId), rowIdOf(userId));
      return row ? toMember(row) : null;
    },
    async getById(id) {
      const row = byId.get(rowIdOf(id));
      return row ? toMember(row) : null;
    },
    async listByOrganization(organizationId) {
      return byOrganization.all(rowIdOf(organizationId)).map(toMemberWithUser);
    },
    async listForUser(userId) {
      return forUser.all(rowIdOf(userId)).map(toMember);
    },
    async setRole(memberId, role) {
      return changeKeepingAnOwner(memberId, role !== "owner", () => {
        const row = setRole.get(role, rowIdOf(memberId));
        return row ? toMember(row) : null;
      });
    },
    async remove(memberId) {
      changeKeepingAnOwner(memberId, true, () => remove.run(rowIdOf(memberId)));
    },
    async countOwners(organizationId) {
      return owners.get(rowIdOf(organizationId))!.n;
    },
    async transferOwnership(fromMemberId, toMemberId) {
      // Read-then-write: immediate, so a write by another connection (the ingest worker's) waits instead of failing.
      transfer.immediate(rowIdOf(fromMemberId), rowIdOf(toMemberId));
    },
  };
}

export function sqliteTeams(db: Db): TeamRepo {
  const insert = db.prepare<[Id, string, string, number], TeamRow>(
    `INSERT INTO teams (organization_id, slug, name, date_created) VALUES (?, ?, ?, ?) RETURNING ${TEAM_COLUMNS}`,
  );
  const byId = db.prepare<[Id], TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = ?`);
  const bySlug = db.prepare<[Id, string], TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE organization_id = ? AND slug = ?`);
  const byOrganization = db.prepare<[Id], TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE organization_id = ? ORDER BY slug`);
  // Only a member and a team of the same organisation are linked: no row is inserted otherwise.
  const addMember = db.prepare<[Id, Id]>(
    `INSERT INTO team_members (team_id, member_id)
     SELECT t.id, m.id FROM teams t JOIN members m ON m.organization_id = t.organization_id WHERE t.id = ? AND m.id = ?
     ON CONFLICT DO NOTHING`,
  );
  const hasMember = db.prepare<[Id, Id], { one: number }>("SELECT 1 AS one FROM team_members WHERE team_id = ? AND member_id = ?");
  const removeMember = db.prepare<[Id, Id]>("DELETE FROM team_members WHERE team_id = ? AND member_id = ?");
  const members = db.prepare<[Id], MemberWithUserRow>(
    `${SELECT_MEMBER_WITH_USER} JOIN team_members tm ON tm.member_id = m.id WHERE tm.team_id = ? ORDER BY u.email`,
  );
  const forMember = db.prepare<[Id], TeamRow>(
    `SELECT ${TEAM_COLUMNS_T} FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE tm.member_id = ? ORDER BY t.slug`,
  );
  const addProject = db.prepare<[Id, Id]>(
    `INSERT INTO team_projects (team_id, project_id)
     SELECT t.id, p.id FROM teams t JOIN projects p ON p.organization_id = t.organization_id WHERE t.id = ? AND p.id = ?
     ON CONFLICT DO NOTHING`,
  );
  const hasProject = db.prepare<[Id, Id], { one: number }>("SELECT 1 AS one FROM team_projects WHERE team_id = ? AND project_id = ?");
  const removeProject = db.prepare<[Id, Id]>("DELETE FROM team_projects WHERE team_id = ? AND project_id = ?");
  const projectIds = db.prepare<[Id], { project_id: number }>("SELECT project_id FROM team_projects WHERE team_id = ? ORDER BY project_id");
  const forProject = db.prepare<[Id], TeamRow>(
    `SELECT ${TEAM_COLUMNS_T} FROM teams t JOIN team_projects tp ON tp.team_id = t.id WHERE tp.project_id = ? ORDER BY t.slug`,
  );
  const memberProjectIds = db.prepare<[Id], { project_id: number }>(
    `SELECT DISTINCT tp.project_id FROM team_members tm JOIN team_projects tp ON tp.team_id = tm.team_id
     WHERE tm.member_id = ? ORDER BY tp.project_id`,
  );
  type LinkRow = { team_id: number; linked_id: number | null };
  const membersByTeam = db.prepare<[Id], LinkRow>(
    `SELECT t.id AS team_id, tm.member_id AS linked_id FROM teams t LEFT JOIN team_members tm ON tm.team_id = t.id
     WHERE t.organization_id = ? ORDER BY t.id, tm.member_id`,
  );
  const projectsByTeam = db.prepare<[Id], LinkRow>(
    `SELECT t.id AS team_id, tp.project_id AS linked_id FROM teams t LEFT JOIN team_projects tp ON tp.team_id = t.id
     WHERE t.organization_id = ? ORDER BY t.id, tp.project_id`,
  );
  return {
    async create({ organizationId, slug, name }) {
      try {
        return toTeam(insert.get(rowIdOf(organizationId), slug, name, Date.now())!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), {
          unique: `the team slug ${slug} is taken in this organisation`,
          missing: `no organisation ${organizationId}`,
        });
      }
    },
    async getById(id) {
      const row = byId.get(rowIdOf(id));
      return row ? toTeam(row) : null;
    },
    async getBySlug(organizationId, slug) {
      const row = bySlug.get(rowIdOf(organizationId), slug);
      return row ? toTeam(row) : null;
    },
    async listByOrganization(organizationId) {
      return byOrganization.all(rowIdOf(organizationId)).map(toTeam);
    },
    async addMember(teamId, memberId) {
      const [team, member] = [rowIdOf(teamId), rowIdOf(memberId)];
      if (addMember.run(team, member).changes === 0 && !hasMember.get(team, member)) {
        throw new AppError("not_found", `no team ${teamId} with member ${memberId} in one organisation`);
      }
    },
    async removeMember(teamId, memberId) {
      removeMember.run(rowIdOf(teamId), rowIdOf(memberId));
    },
    async listMembers(teamId) {
      return members.all(rowIdOf(teamId)).map(toMemberWithUser);
    },
    async listForMember(memberId) {
      return forMember.all(rowIdOf(memberId)).map(toTeam);
    },
    async addProject(teamId, projectId) {
      const [team, project] = [rowIdOf(teamId), rowIdOf(projectId)];
      if (addProject.run(team, project).changes === 0 && !hasProject.get(team, project)) {
        throw new AppError("not_found", `no team ${teamId} with project ${projectId} in one organisation`);
      }
    },
    async removeProject(teamId, projectId) {
      removeProject.run(rowIdOf(teamId), rowIdOf(projectId));
    },
    async listProjectIds(teamId) {
      return projectIds.all(rowIdOf(teamId)).map((row) => String(row.project_id));
    },
    async listForProject(projectId) {
      return forProject.all(rowIdOf(projectId)).map(toTeam);
    },
    async projectIdsForMember(memberId) {
      return memberProjectIds.all(rowIdOf(memberId)).map((row) => String(row.project_id));
    },
    async memberIdsByTeam(organizationId) {
      return idsByTeam(membersByTeam.all(rowIdOf(organizationId)));
    },
    async projectIdsByTeam(organizationId) {
      return idsByTeam(projectsByTeam.all(rowIdOf(organizationId)));
    },
  };
}
