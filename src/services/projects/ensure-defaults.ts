import type { Organization, Project, ProjectKey, Storage } from "../../storage/types";
import { createProject } from "./create-project";

export const DEFAULT_ORGANIZATION_SLUG = "default";
export const DEFAULT_PROJECT_SLUG = "default";

/** First start: a default organisation and project with a DSN key, so the console can print a DSN. */
export async function ensureDefaults(
  storage: Storage,
): Promise<{ organization: Organization; project: Project; key: ProjectKey }> {
  const organization =
    (await storage.organizations.getBySlug(DEFAULT_ORGANIZATION_SLUG)) ??
    (await storage.organizations.create({ slug: DEFAULT_ORGANIZATION_SLUG, name: "Default organization" }));
  const existing = await storage.projects.getBySlug(organization.id, DEFAULT_PROJECT_SLUG);
  if (existing) {
    const keys = await storage.keys.listByProject(existing.id);
    const key = keys.find((k) => k.isActive) ?? (await storage.keys.create({ projectId: existing.id, label: "Default" }));
    return { organization, project: existing, key };
  }
  const { project, key } = await createProject(storage, organization, {
    name: "Default project",
    slug: DEFAULT_PROJECT_SLUG,
    platform: null,
  });
  return { organization, project, key };
}
