"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { ARTIFACT_WRITE_SCOPES, deleteProjectBundle, deleteProjectReleaseFile } from "@/src/services/artifacts/list";
import { loadWorkspace } from "@/src/services/ui/workspace";

/**
 * Deletes source-map artifacts with the scopes their upload takes (project:releases or
 * project:write); the arguments come from the browser, so the scope and the project are checked
 * again here, and the resolver's caches hear of the change through the service.
 */
async function projectFor(organizationSlug: string, projectSlug: string) {
  const runtime = getRuntime();
  const { access, actor } = await actionAccess(organizationSlug, ARTIFACT_WRITE_SCOPES);
  const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
  if (!project) throw new Error("loadWorkspace answers a project for a project reference");
  return { storage: runtime.storage, access, actor, project, path: `/settings/${access.organization.slug}/projects/${project.slug}/source-maps` };
}

export async function deleteBundleAction(organizationSlug: string, projectSlug: string, bundleId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { storage, access, actor, project, path } = await projectFor(organizationSlug, projectSlug);
    const bundle = await deleteProjectBundle(storage, access, actor, project, bundleId);
    revalidatePath(path);
    return { message: `Bundle ${bundle.bundleId} deleted.` };
  });
}

export async function deleteReleaseFileAction(organizationSlug: string, projectSlug: string, fileId: string, _previous: ActionState): Promise<ActionState> {
  return runAction(async () => {
    const { storage, actor, project, path } = await projectFor(organizationSlug, projectSlug);
    await deleteProjectReleaseFile(storage, actor, project, fileId);
    revalidatePath(path);
    return { message: "Release file deleted." };
  });
}
