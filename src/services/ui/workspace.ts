import { AppError } from "../../errors";
import type { Organization, Project, Storage } from "../../storage/types";
import { resolveOrganization } from "../organizations/resolve";
import { ensureDefaults } from "../projects/ensure-defaults";

/** What every page's header needs: the organisation, its projects and the one being looked at. */
export interface Workspace {
  organization: Organization;
  projects: Project[];
  /** The requested project, else the first one; null only when the organisation has none. */
  project: Project | null;
}

/**
 * `projectRef` is a project id (as in `?project=<id>`) or slug (as in settings paths). An unknown
 * reference is a 404 rather than a silent fallback, so a stale link never shows another project's data.
 */
export async function loadWorkspace(storage: Storage, organizationSlug: string, projectRef?: string): Promise<Workspace> {
  const organization = await resolveOrganization(storage, organizationSlug);
  const projects = await storage.projects.listByOrganization(organization.id);
  if (projectRef === undefined || projectRef === "") return { organization, projects, project: projects[0] ?? null };
  const project = projects.find((p) => p.id === projectRef) ?? projects.find((p) => p.slug === projectRef);
  if (!project) throw new AppError("not_found", "project not found");
  return { organization, projects, project };
}

/** Where `/` leads: the first organisation, created with its default project on an empty database. */
export async function homeOrganization(storage: Storage): Promise<Organization> {
  const [first] = await storage.organizations.list();
  return first ?? (await ensureDefaults(storage)).organization;
}
