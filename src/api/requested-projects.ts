import { AppError } from "../errors";
import type { Project } from "../model";
import type { Runtime } from "../runtime";
import { visibleProjects, type Access } from "../services/accounts/access";
import { listProjects } from "../services/projects/list-projects";
import { visibleProject } from "../services/projects/visible-project";
import { projectIdsOf } from "./issue-query";

/**
 * The projects an organisation endpoint's `?project=` names (none or `-1`: every project the caller
 * may see). A project the caller's teams do not own is answered exactly like one that does not
 * exist (400 "unknown project id"), so the answer reveals nothing about it.
 */
export async function requestedProjects(storage: Runtime["storage"], request: Request, access: Access): Promise<Project[]> {
  const visible = visibleProjects(access, await listProjects(storage, access.organization));
  const onlyIds = projectIdsOf(new URL(request.url));
  if (onlyIds === null) return visible;
  const known = new Set(visible.map((project) => project.id));
  const unknown = onlyIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw new AppError("bad_request", `unknown project id: ${unknown}`);
  const wanted = new Set(onlyIds);
  return visible.filter((project) => wanted.has(project.id));
}

/** `{project}` in a path (slug or numeric id) in the caller's organisation; 404 unless the caller may see it. */
export function projectInPath(storage: Runtime["storage"], access: Access, slugOrId: string): Promise<Project> {
  return visibleProject(storage, access, slugOrId);
}
