/**
 * Which projects the organisation-wide issue list covers: Sentry's `project` values, repeated or
 * comma-separated — ids, `-1` (every project the person sees) or `mine` (their teams' projects).
 */
import { AppError } from "../../errors";
import type { Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { Access } from "../accounts/access";

export type ProjectSelection = "all" | "mine" | "some";

export async function issueProjectScope(
  storage: Storage,
  access: Access,
  visible: Project[],
  values: string[],
): Promise<{ projects: Project[]; selection: ProjectSelection }> {
  const refs = values.flatMap((value) => value.split(",")).map((value) => value.trim()).filter((value) => value !== "");
  if (refs.includes("-1") || refs.includes("all")) return { projects: visible, selection: "all" };
  if (refs.includes("mine")) {
    const mine = new Set(await storage.accounts.teams.projectIdsForMember(access.member.id));
    return { projects: visible.filter((project) => mine.has(project.id)), selection: "mine" };
  }
  const byId = new Map(visible.map((project) => [project.id, project]));
  const projects = refs.map((ref) => {
    const project = byId.get(ref) ?? visible.find((candidate) => candidate.slug === ref);
    if (!project) throw new AppError("not_found", `project ${ref} not found`);
    return project;
  });
  return { projects: [...new Set(projects)], selection: "some" };
}

/** The releases and environments the projects' issues were seen in (the filter menus), sorted, at most 200 each. */
export async function issueFacetsOf(storage: Storage, projects: Project[]): Promise<{ releases: string[]; environments: string[] }> {
  const releases = new Set<string>();
  const environments = new Set<string>();
  for (const project of projects.slice(0, 50)) {
    const facets = await storage.issues.facets(project.id);
    facets.releases.forEach((value) => releases.add(value));
    facets.environments.forEach((value) => environments.add(value));
  }
  const sorted = (values: Set<string>) => [...values].sort().slice(0, 200);
  return { releases: sorted(releases), environments: sorted(environments) };
}
