import type { Project, ProjectKey } from "../../model";
import type { Storage } from "../../storage/types";

/** A project's DSN keys, oldest first (the first one is the project's default DSN). */
export async function listKeys(storage: Storage, project: Project): Promise<ProjectKey[]> {
  return storage.keys.listByProject(project.id);
}
