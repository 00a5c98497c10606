import { AppError } from "../errors";
import type { Access } from "../services/accounts/access";
import { requireProject, visibleProjects } from "../services/accounts/access";
import type { Project } from "../model";
import type { Storage } from "../storage/types";
import { projectIdsOf } from "./issue-query";

/**
 * The projects an organisation endpoint's `?project=` names (none or `-1`: every project the caller
 * may see). A project the caller's teams do not own is answered exactly like one that does not
 * exist (400 "unknown project id"), so the answer reveals nothing about it.
 */
export async function requestedProjects(storage: Storage, request: Request, access: Access): Promise<Project[]> {
  const visible = visibleProjects(access, await storage.projects.listByOrganization(access.organization.id));
  const onlyIds = projectIdsOf(new URL(request.url));
  if (onlyIds === null) return visible;
  const known = new Set(visible.map((project) => project.id));
  const unknown = onlyIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw new AppError("bad_request", `unknown project id: ${unknown}`);
  const wanted = new Set(onlyIds);
  return visible.filter((project) => wanted.has(project.id));
}

/** `{project}` in a path (slug or numeric id) in the caller's organisation; 404 unless the caller may see it. */
export async function projectInPath(storage: Storage, access: Access, slugOrId: string): Promise<Project> {
  const project =
    (await storage.projects.getBySlug(access.organization.id, slugOrId)) ??
    (/^\d+$/.test(slugOrId) ? await storage.projects.getById(slugOrId) : null);
  return requireProject(access, project);
}
