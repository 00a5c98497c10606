import type { Organization, Project, ProjectKey, Storage } from "../../storage/types";
import { createProject } from "../projects/create-project";

/** The project that holds Periscope's own errors, sessions and performance data. */
export const MONITORING_PROJECT_SLUG = "periscope";

export async function ensureMonitoringProject(
  storage: Storage,
  organization: Organization,
): Promise<{ project: Project; key: ProjectKey }> {
  const existing = await storage.projects.getBySlug(organization.id, MONITORING_PROJECT_SLUG);
  if (!existing) {
    return createProject(storage, organization, { name: "Periscope", slug: MONITORING_PROJECT_SLUG, platform: "javascript-react" });
  }
  const keys = await storage.keys.listByProject(existing.id);
  const key = keys.find((k) => k.isActive) ?? (await storage.keys.create({ projectId: existing.id, label: "Default" }));
  return { project: existing, key };
}
