/** Source-map artifacts of a project, for the settings page (issue 32, item 4). */
import type { Scope } from "../../auth/scopes";
import { AppError } from "../../errors";
import type { ArtifactBundle, Project, ReleaseFile, StoredArtifact } from "../../model";
import type { Storage } from "../../storage/types";
import { announceArtifactsChanged } from "../../symbolication/presence";
import type { Access } from "../accounts/access";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

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

/** Who may delete artifacts from the UI: whoever may upload them (as the upload routes require). */
export const ARTIFACT_WRITE_SCOPES = ["project:releases", "project:write"] as const satisfies readonly Scope[];

export interface BundleWithFiles {
  bundle: ArtifactBundle;
  files: StoredArtifact[];
}

/** The project's bundles (newest first, at most `limit`), each with its files; only those of `release` when given. */
export async function bundlesWithFiles(storage: Storage, project: Project, options: { release?: string; limit: number }): Promise<BundleWithFiles[]> {
  const bundles = (await listBundles(storage, project)).filter((bundle) => options.release === undefined || bundle.release === options.release).slice(0, options.limit);
  return Promise.all(bundles.map(async (bundle) => ({ bundle, files: await bundleFiles(storage, project, bundle) })));
}

/** Every release file of the project, by release then URL. */
export function listAllReleaseFiles(storage: Storage, project: Project): Promise<ReleaseFile[]> {
  return storage.artifacts.listReleaseFiles(project.id);
}

/**
 * Deletes one of the project's bundles for a person: 404 for a bundle the project does not have, 403
 * when it also serves projects the person's teams do not own (deleting it would take their maps too).
 */
export async function deleteProjectBundle(storage: Storage, access: Access, actor: Actor, project: Project, bundleId: string): Promise<ArtifactBundle> {
  const bundle = (await listBundles(storage, project)).find((candidate) => candidate.id === bundleId);
  if (!bundle) throw new AppError("not_found", `bundle ${bundleId} not found in project ${project.slug}`);
  if (!bundle.projectIds.every((id) => access.projects === "all" || access.projects.has(id))) {
    throw new AppError("forbidden", `bundle ${bundle.bundleId} also serves projects your teams do not own`);
  }
  if (!(await deleteBundle(storage, project, bundle))) throw new AppError("not_found", `bundle ${bundle.bundleId} not found`);
  await recordAudit(storage, actor, access.organization.id, "artifact-bundle.remove", { type: "artifact-bundle", id: bundle.id }, {
    bundleId: bundle.bundleId,
    release: bundle.release,
    projects: bundle.projectIds,
  });
  return bundle;
}

export async function deleteProjectReleaseFile(storage: Storage, actor: Actor, project: Project, id: string): Promise<void> {
  if (!(await deleteReleaseFile(storage, project, id))) throw new AppError("not_found", `release file ${id} not found in project ${project.slug}`);
  await recordAudit(storage, actor, project.organizationId, "release-file.remove", { type: "release-file", id }, { project: project.slug });
}
