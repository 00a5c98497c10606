/** Source-map artifacts of a project, for the settings page (issue 32, item 4). */
import type { ArtifactBundle, Project, ReleaseFile, StoredArtifact } from "../../model";
import type { Storage } from "../../storage/types";
import { announceArtifactsChanged } from "../../symbolication/presence";

export function listBundles(storage: Storage, project: Project): Promise<ArtifactBundle[]> {
  return storage.artifacts.listBundles(project.id);
}

/** The files of a bundle the project can see; [] for another project's bundle. */
export async function bundleFiles(storage: Storage, project: Project, bundle: ArtifactBundle): Promise<StoredArtifact[]> {
  return bundle.projectIds.includes(project.id) ? storage.artifacts.bundleFiles(bundle.id) : [];
}

export async function deleteBundle(storage: Storage, project: Project, bundle: ArtifactBundle): Promise<boolean> {
  if (!bundle.projectIds.includes(project.id)) return false;
  const deleted = await storage.artifacts.deleteBundle(project.organizationId, bundle.id);
  for (const projectId of bundle.projectIds) announceArtifactsChanged(projectId);
  return deleted;
}

export function listProjectReleaseFiles(storage: Storage, project: Project, release: string): Promise<ReleaseFile[]> {
  return storage.artifacts.listReleaseFiles(project.id, release);
}

export async function deleteReleaseFile(storage: Storage, project: Project, id: string): Promise<boolean> {
  const deleted = await storage.artifacts.deleteReleaseFile(project.id, id);
  announceArtifactsChanged(project.id);
  return deleted;
}
