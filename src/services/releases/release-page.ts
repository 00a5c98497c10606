/**
 * What the release page shows beside the release itself: the issues first seen in it and the
 * source-map artifacts uploaded for it, over the release's projects the person may see.
 */
import type { IssueWithStats, Project, ReleaseFile } from "../../model";
import type { Storage } from "../../storage/types";
import { bundlesWithFiles, type BundleWithFiles } from "../artifacts/list";

/** Newest first; `limit` of them and whether there are more. */
export async function issuesFirstSeenIn(
  storage: Storage,
  projects: Project[],
  version: string,
  options: { limit: number; now: number },
): Promise<{ issues: IssueWithStats[]; more: boolean }> {
  const page = await storage.issues.query({ projectIds: projects.map((project) => project.id), firstRelease: version, sort: "new", limit: options.limit, now: options.now });
  return { issues: page.items, more: page.nextCursor !== null };
}

export interface ReleaseArtifacts {
  bundles: (BundleWithFiles & { projects: Project[] })[];
  releaseFiles: (ReleaseFile & { project: Project })[];
}

/** Bundles uploaded with `--release version` (each once, however many projects it serves) and the release's files. */
export async function releaseArtifacts(storage: Storage, projects: Project[], version: string, limit = 50): Promise<ReleaseArtifacts> {
  const byId = new Map<string, BundleWithFiles & { projects: Project[] }>();
  const releaseFiles: (ReleaseFile & { project: Project })[] = [];
  for (const project of projects) {
    for (const entry of await bundlesWithFiles(storage, project, { release: version, limit })) {
      const known = byId.get(entry.bundle.id);
      if (known) known.projects.push(project);
      else byId.set(entry.bundle.id, { ...entry, projects: [project] });
    }
    for (const file of await storage.artifacts.listReleaseFiles(project.id, version)) releaseFiles.push({ ...file, project });
  }
  const bundles = [...byId.values()].sort((a, b) => b.bundle.dateUploaded - a.bundle.dateUploaded);
  return { bundles, releaseFiles };
}
