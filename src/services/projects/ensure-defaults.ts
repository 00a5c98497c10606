import type { Organization, Project, ProjectKey, Team } from "../../model";
import type { Storage } from "../../storage/types";
import { SYSTEM_ACTOR } from "../accounts/actor";
import { createProject } from "./create-project";
import { getOrCreate } from "./get-or-create";

export const DEFAULT_ORGANIZATION_SLUG = "default";
export const DEFAULT_PROJECT_SLUG = "default";
export const DEFAULT_TEAM_SLUG = "default";

/**
 * First start: a default organisation, a default team owning a default project with a DSN key, so
 * the console can print a DSN. Installations from before teams existed get the team on upgrade.
 */
export async function ensureDefaults(
  storage: Storage,
): Promise<{ organization: Organization; team: Team; project: Project; key: ProjectKey }> {
  const organization = await getOrCreate(
    () => storage.organizations.getBySlug(DEFAULT_ORGANIZATION_SLUG),
    () => storage.organizations.create({ slug: DEFAULT_ORGANIZATION_SLUG, name: "Default organization" }),
  );
  const team = await getOrCreate(
    () => storage.accounts.teams.getBySlug(organization.id, DEFAULT_TEAM_SLUG),
    () => storage.accounts.teams.create({ organizationId: organization.id, slug: DEFAULT_TEAM_SLUG, name: "Default team" }),
  );
  const project = await getOrCreate(
    () => storage.projects.getBySlug(organization.id, DEFAULT_PROJECT_SLUG),
    async () =>
      (await createProject(storage, SYSTEM_ACTOR, organization, team, { name: "Default project", slug: DEFAULT_PROJECT_SLUG, platform: null })).project,
  );
  if ((await storage.accounts.teams.listForProject(project.id)).length === 0) await storage.accounts.teams.addProject(team.id, project.id);
  return { organization, team, project, key: await activeKey(storage, project) };
}

/** The project's first active key, created when it has none (a racing process may have created one meanwhile). */
export async function activeKey(storage: Storage, project: Project): Promise<ProjectKey> {
  const keys = await storage.keys.listByProject(project.id);
  return keys.find((k) => k.isActive) ?? (await storage.keys.create({ projectId: project.id, label: "Default" }));
}
