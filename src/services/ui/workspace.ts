import { AppError } from "../../errors";
import type { Organization, Project } from "../../model";
import type { Storage } from "../../storage/types";
import { visibleProjects, type Access } from "../accounts/access";

/** What every page's header needs: the organisation, its projects and the one being looked at. */
export interface Workspace {
  access: Access;
  organization: Organization;
  /** Only those the person may see: their teams' projects, or all for owners and admins. */
  projects: Project[];
  /** The requested project, else the first one; null only when the organisation has none. */
  project: Project | null;
}

/**
 * `projectRef` is a project id (as in `?project=<id>`) or slug (as in settings paths). An unknown
 * reference — or one the person may not see — is a 404 rather than a silent fallback, so a stale link
 * never shows another project's data and a hidden project's existence is not revealed.
 */
export async function loadWorkspace(storage: Storage, access: Access, projectRef?: string): Promise<Workspace> {
  const organization: Organization = access.organization;
  const projects = visibleProjects(access, await storage.projects.listByOrganization(organization.id));
  if (projectRef === undefined || projectRef === "") return { access, organization, projects, project: projects[0] ?? null };
  const project = projects.find((p) => p.id === projectRef) ?? projects.find((p) => p.slug === projectRef);
  if (!project) throw new AppError("not_found", "project not found");
  return { access, organization, projects, project };
}
