import type { Organization, Project, ProjectKey, Storage } from "../../storage/types";
import { createProject } from "./create-project";
import { getOrCreate } from "./get-or-create";

export const DEFAULT_ORGANIZATION_SLUG = "default";
export const DEFAULT_PROJECT_SLUG = "default";

/** First start: a default organisation and project with a DSN key, so the console can print a DSN. */
export async function ensureDefaults(
  storage: Storage,
): Promise<{ organization: Organization; project: Project; key: ProjectKey }> {
  const organization = await getOrCreate(
    () => storage.organizations.getBySlug(DEFAULT_ORGANIZATION_SLUG),
    () => storage.organizations.create({ slug: DEFAULT_ORGANIZATION_SLUG, name: "Default organization" }),
  );
  const project = await getOrCreate(
    () => storage.projects.getBySlug(organization.id, DEFAULT_PROJECT_SLUG),
    async () => (await createProject(storage, organization, { name: "Default project", slug: DEFAULT_PROJECT_SLUG, platform: null })).project,
  );
  return { organization, project, key: await activeKey(storage, project) };
}

/** The project's first active key, created when it has none (a racing process may have created one meanwhile). */
export async function activeKey(storage: Storage, project: Project): Promise<ProjectKey> {
  const keys = await storage.keys.listByProject(project.id);
  return keys.find((k) => k.isActive) ?? (await storage.keys.create({ projectId: project.id, label: "Default" }));
}
