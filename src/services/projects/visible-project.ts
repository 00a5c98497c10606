import type { Project } from "../../model";
import type { Storage } from "../../storage/types";
import { requireProject, type Access } from "../accounts/access";

/** A project named by slug or numeric id in the caller's organisation; "not found" unless the caller may see it. */
export async function visibleProject(storage: Storage, access: Access, slugOrId: string): Promise<Project> {
  const project =
    (await storage.projects.getBySlug(access.organization.id, slugOrId)) ??
    (/^\d+$/.test(slugOrId) ? await storage.projects.getById(slugOrId) : null);
  return requireProject(access, project);
}
