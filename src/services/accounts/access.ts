/**
 * The authorisation core shared by the REST API, the UI's pages and server actions, and nothing else
 * decides access. A principal (a signed-in person or an API token) gets an `Access` to one
 * organisation: its role, the scopes it acts with, and the projects it may see.
 *
 * Someone who is not a member gets "not found", never "forbidden": the answer must not reveal whether
 * another organisation, or its projects, issues and events, exist.
 */
import { AppError } from "../../errors";
import { allowsAny, describeScopes, effectiveScopes, type Role, type Scope } from "../../auth/scopes";
import type { ApiToken, LoginSession, Member, Organization, Project, User } from "../../model";
import type { Storage } from "../../storage/types";
import { resolveOrganization } from "../organizations/resolve";

export type Principal =
  | { kind: "session"; user: User; session: LoginSession }
  | { kind: "token"; user: User; token: ApiToken };

export interface Access {
  principal: Principal;
  organization: Organization;
  member: Member;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** "all" for owners and admins; otherwise the ids of the projects their teams own. */
  projects: "all" | ReadonlySet<string>;
}

export async function accessTo(storage: Storage, principal: Principal, organization: Organization): Promise<Access> {
  const member = await storage.accounts.members.get(organization.id, principal.user.id);
  if (!member) throw new AppError("not_found", "organization not found");
  const scopes = effectiveScopes(member.role, principal.kind === "token" ? principal.token.scopes : null);
  const seesAll = member.role === "owner" || member.role === "admin";
  const projects = seesAll ? "all" : new Set(await storage.accounts.teams.projectIdsForMember(member.id));
  return { principal, organization, member, role: member.role, scopes, projects };
}

/** Resolves the organisation by slug or id and the principal's access to it (404 when not a member). */
export async function accessToOrganization(storage: Storage, principal: Principal, slugOrId: string): Promise<Access> {
  const organization = await resolveOrganization(storage, slugOrId);
  return accessTo(storage, principal, organization);
}

/** `scope`: one scope, or a list of which any one will do. */
export function hasScope(access: Access, scope: Scope | readonly Scope[]): boolean {
  return allowsAny(access.scopes, scope);
}

/** `scope`: one scope, or a list of which any one will do (the release routes). */
export function requireScope(access: Access, scope: Scope | readonly Scope[]): void {
  if (!allowsAny(access.scopes, scope)) {
    const how = access.principal.kind === "token" ? "this token" : `the ${access.role} role`;
    throw new AppError("forbidden", `You do not have permission to perform this action: it needs the ${describeScopes(scope)} scope, which ${how} does not grant`);
  }
}

export function canSeeProject(access: Access, project: Project): boolean {
  if (project.organizationId !== access.organization.id) return false;
  return access.projects === "all" || access.projects.has(project.id);
}

/** The project if this access may see it; "not found" otherwise, whichever organisation it is in. */
export function requireProject(access: Access, project: Project | null, what = "project"): Project {
  if (!project || !canSeeProject(access, project)) throw new AppError("not_found", `${what} not found`);
  return project;
}

export function visibleProjects(access: Access, projects: Project[]): Project[] {
  return projects.filter((project) => canSeeProject(access, project));
}

/** Every organisation the principal belongs to. */
export async function organizationsOf(storage: Storage, user: User): Promise<Organization[]> {
  const memberships = await storage.accounts.members.listForUser(user.id);
  const organizations = await Promise.all(memberships.map((member) => storage.organizations.getById(member.organizationId)));
  return organizations.filter((organization): organization is Organization => organization !== null);
}
