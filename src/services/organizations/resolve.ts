import { AppError } from "../../errors";
import type { Organization, Project } from "../../model";
import type { Storage } from "../../storage/types";

/** Organisations are addressed by slug (or numeric id), as in Sentry's API paths. */
export async function resolveOrganization(storage: Storage, slugOrId: string): Promise<Organization> {
  const organization =
    (await storage.organizations.getBySlug(slugOrId)) ??
    (/^\d+$/.test(slugOrId) ? await storage.organizations.getById(slugOrId) : null);
  if (!organization) throw new AppError("not_found", "organization not found");
  return organization;
}

export async function resolveProject(storage: Storage, organizationSlug: string, projectSlug: string): Promise<Project> {
  const organization = await resolveOrganization(storage, organizationSlug);
  const project =
    (await storage.projects.getBySlug(organization.id, projectSlug)) ??
    (/^\d+$/.test(projectSlug) ? await storage.projects.getById(projectSlug) : null);
  if (!project || project.organizationId !== organization.id) throw new AppError("not_found", "project not found");
  return project;
}
