/**
 * What the release page shows beside the release itself: the issues first seen in it and the
 * source-map artifacts uploaded for it, over the release's projects the person may see.
 */
import { AppError } from "../../errors";
import type { IssueWithStats, Project, ReleaseFile } from "../../model";
import type { Storage } from "../../storage/types";
import type { Access } from "../accounts/access";
import { bundlesWithFiles, type BundleWithFiles } from "../artifacts/list";
import { listReleases, releaseDetail, requireRelease, type ReleaseDetail } from "./releases";

/**
 * A release by version for its page: an explicit one (sentry-cli) with its commits and deploys, or one
 * known only from telemetry (no commits, no deploys). 404 when the person sees neither.
 */
export async function releaseForPage(storage: Storage, access: Access, version: string): Promise<ReleaseDetail> {
  try {
    return await releaseDetail(storage, access, await requireRelease(storage, access, version));
  } catch (error) {
    // By name: the page bundle and server.ts may hold different copies of the AppError class.
    if (!(error instanceof Error) || error.name !== "AppError" || (error as AppError).code !== "not_found") throw error;
  }
  const implicit = (await listReleases(storage, access, { query: version, limit: 1000 })).find((summary) => summary.version === version && summary.release === null);
  if (!implicit) throw new AppError("not_found", `release ${version} not found`);
  return { ...implicit, commits: [], deploys: [] };
}

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
