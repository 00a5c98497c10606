import type { Organization, Project, ProjectKey } from "../../model";
import type { Storage } from "../../storage/types";
import { createProject } from "../projects/create-project";
import { SYSTEM_ACTOR } from "../accounts/actor";
import { activeKey } from "../projects/ensure-defaults";
import { getOrCreate } from "../projects/get-or-create";

/** The project that holds Periscope's own errors, sessions and performance data. */
export const MONITORING_PROJECT_SLUG = "periscope";

export async function ensureMonitoringProject(
  storage: Storage,
  organization: Organization,
): Promise<{ project: Project; key: ProjectKey }> {
  const project = await getOrCreate(
    () => storage.projects.getBySlug(organization.id, MONITORING_PROJECT_SLUG),
    async () => (await createProject(storage, SYSTEM_ACTOR, organization, null, { name: "Periscope", slug: MONITORING_PROJECT_SLUG, platform: "javascript-react" })).project,
  );
  return { project, key: await activeKey(storage, project) };
}
