/** Teams own projects; members see the projects of their teams (owners and admins see all). */
import { z } from "zod";
import { AppError } from "../../errors";
import { parseInput } from "../parse-input";
import type { MemberWithUser, Project, Team } from "../../model";
import type { Storage } from "../../storage/types";
import { slugify, slugSchema } from "../projects/slug";
import { requireScope, type Access } from "./access";
import type { Actor } from "./actor";
import { recordAudit } from "./audit";

const createTeamInput = z.object({
  name: z.string().trim().min(1, "name: must not be empty").max(100, "name: must be at most 100 characters"),
  slug: slugSchema.optional(),
});

export async function listTeams(storage: Storage, access: Access): Promise<Team[]> {
  requireScope(access, "team:read");
  return storage.accounts.teams.listByOrganization(access.organization.id);
}

/** The team by slug or id, in this organisation only. */
export async function resolveTeam(storage: Storage, access: Access, slugOrId: string): Promise<Team> {
  const team =
    (await storage.accounts.teams.getBySlug(access.organization.id, slugOrId)) ??
    (/^\d+$/.test(slugOrId) ? await storage.accounts.teams.getById(slugOrId) : null);
  if (!team || team.organizationId !== access.organization.id) throw new AppError("not_found", "team not found");
  return team;
}

export async function createTeam(storage: Storage, access: Access, actor: Actor, input: z.input<typeof createTeamInput>): Promise<Team> {
  requireScope(access, "team:write");
  const data = parseInput(createTeamInput, input);
  const slug = data.slug ?? slugify(data.name);
  if (await storage.accounts.teams.getBySlug(access.organization.id, slug)) {
    throw new AppError("conflict", `a team with the slug "${slug}" already exists in this organization`);
  }
  const team = await storage.accounts.teams.create({ organizationId: access.organization.id, slug, name: data.name });
  await recordAudit(storage, actor, access.organization.id, "team.create", { type: "team", id: team.id }, { slug });
  return team;
}

async function memberIn(storage: Storage, access: Access, memberId: string) {
  const member = await storage.accounts.members.getById(memberId);
  if (!member || member.organizationId !== access.organization.id) throw new AppError("not_found", "member not found");
  return member;
}

export async function setTeamMembership(
  storage: Storage,
  access: Access,
  actor: Actor,
  team: Team,
  memberId: string,
  join: boolean,
): Promise<void> {
  requireScope(access, "team:write");
  const member = await memberIn(storage, access, memberId);
  if (join) await storage.accounts.teams.addMember(team.id, member.id);
  else await storage.accounts.teams.removeMember(team.id, member.id);
  await recordAudit(storage, actor, access.organization.id, join ? "team.add_member" : "team.remove_member", { type: "team", id: team.id }, { memberId: member.id });
}

export async function setTeamProject(
  storage: Storage,
  access: Access,
  actor: Actor,
  team: Team,
  project: Project,
  owns: boolean,
): Promise<void> {
  requireScope(access, "project:write");
  if (project.organizationId !== access.organization.id) throw new AppError("not_found", "project not found");
  if (owns) await storage.accounts.teams.addProject(team.id, project.id);
  else await storage.accounts.teams.removeProject(team.id, project.id);
  await recordAudit(storage, actor, access.organization.id, owns ? "team.add_project" : "team.remove_project", { type: "team", id: team.id }, { projectId: project.id, project: project.slug });
}

export interface TeamSummary {
  team: Team;
  memberCount: number;
  /** Whether the caller is on the team. */
  isMember: boolean;
}

/** Every team of the organisation with its member count and whether the caller is on it, in two queries. */
export async function listTeamSummaries(storage: Storage, access: Access): Promise<TeamSummary[]> {
  const [teams, memberIds] = await Promise.all([listTeams(storage, access), storage.accounts.teams.memberIdsByTeam(access.organization.id)]);
  return teams.map((team) => {
    const ids = memberIds.get(team.id) ?? [];
    return { team, memberCount: ids.length, isMember: ids.includes(access.member.id) };
  });
}

export interface TeamDetails {
  team: Team;
  members: MemberWithUser[];
  /** Ids of the projects the team owns, whether or not the caller may see them. */
  projectIds: ReadonlySet<string>;
}

/**
 * What the teams page shows: every team with its members and projects, the organisation's members
 * and its projects (to offer for adding), in a fixed number of queries however many teams there are.
 */
export async function listTeamDetails(
  storage: Storage,
  access: Access,
): Promise<{ teams: TeamDetails[]; members: MemberWithUser[]; projects: Project[] }> {
  const organizationId = access.organization.id;
  const [teams, members, projects, memberIds, projectIds] = await Promise.all([
    listTeams(storage, access),
    storage.accounts.members.listByOrganization(organizationId),
    storage.projects.listByOrganization(organizationId),
    storage.accounts.teams.memberIdsByTeam(organizationId),
    storage.accounts.teams.projectIdsByTeam(organizationId),
  ]);
  const details = teams.map((team) => {
    const onTeam = new Set(memberIds.get(team.id) ?? []);
    // Members come ordered by email, as a team's own list is.
    return { team, members: members.filter((member) => onTeam.has(member.id)), projectIds: new Set(projectIds.get(team.id) ?? []) };
  });
  return { teams: details, members, projects };
}
