import type { Project } from "../storage/types";
import { getRuntime } from "../runtime";
import { resolveOrganization } from "../services/organizations/resolve";
import { listProjects } from "../services/projects/list-projects";
import { projectIdsOf } from "./issue-query";

/** The projects an organisation endpoint's `?project=` names (none or `-1`: all of the organisation's). */
export async function requestedProjects(request: Request, organizationSlug: string): Promise<Project[]> {
  const { storage } = getRuntime();
  const organization = await resolveOrganization(storage, organizationSlug);
  return listProjects(storage, organization, projectIdsOf(new URL(request.url)));
}
