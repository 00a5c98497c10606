import { AppError } from "../../errors";
import type { Organization, Project } from "../../model";
import type { Storage } from "../../storage/types";

/**
 * An organisation's projects; with `onlyIds`, just those (in the organisation's order). An id that is
 * not a project of this organisation is a 400, so a typo never silently widens or empties a search.
 */
export async function listProjects(
  storage: Storage,
  organization: Organization,
  onlyIds: string[] | null = null,
): Promise<Project[]> {
  const projects = await storage.projects.listByOrganization(organization.id);
  if (onlyIds === null) return projects;
  const known = new Set(projects.map((project) => project.id));
  const unknown = onlyIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw new AppError("bad_request", `unknown project id: ${unknown}`);
  const wanted = new Set(onlyIds);
  return projects.filter((project) => wanted.has(project.id));
}
