/**
 * An issue search for one person: parses the query (src/search/) and resolves what it names —
 * `me`, `my_teams`, `#team`, an email, `project:slug`, `release:latest` — to ids and versions, so
 * storage compiles plain terms. A name that resolves to nothing the person may see is a 400 naming
 * the token.
 */
import type { Organization, Project, RefTerm, ResolvedSearch, ResolvedTerm, SearchNode } from "../../model";
import { mapSearch } from "../../search/issue-search-resolve";
import { searchError } from "../../search/issue-search-syntax";
import { parseIssueSearch } from "../../search/issue-search-terms";
import type { Storage } from "../../storage/types";

/**
 * `release:latest`: per project, the release whose first event is the newest (telemetry's implicit
 * releases, which include every release issues were seen in). Reading that scans each project's
 * release tags (tens of ms at 10,000 issues), so the answer is kept for a minute per project set,
 * as Sentry caches its latest release too.
 */
const LATEST_TTL_MS = 60_000;
const latestCaches = new WeakMap<Storage, Map<string, { at: number; versions: string[] }>>();

async function latestReleasesOf(storage: Storage, projects: Project[], now: number): Promise<string[]> {
  const key = projects.map((project) => project.id).sort().join(",");
  const latestCache = latestCaches.get(storage) ?? new Map<string, { at: number; versions: string[] }>();
  latestCaches.set(storage, latestCache);
  const cached = latestCache.get(key);
  if (cached && now - cached.at >= 0 && now - cached.at < LATEST_TTL_MS) return cached.versions;
  const newest = new Map<string, { version: string; first: number }>();
  for (const activity of await storage.releaseActivity.forProjects(projects.map((project) => project.id))) {
    const first = activity.firstEvent ?? -1;
    const current = newest.get(activity.projectId);
    if (!current || first > current.first) newest.set(activity.projectId, { version: activity.version, first });
  }
  const versions = [...new Set([...newest.values()].map((entry) => entry.version))];
  if (latestCache.size > 1000) latestCache.clear();
  latestCache.set(key, { at: now, versions });
  return versions;
}

export interface SearchViewer {
  organization: Organization;
  /** The signed-in person (null: no `me`). */
  userId: string | null;
  /** Their membership in the organisation, for `my_teams`. */
  memberId: string | null;
}

export async function resolveIssueSearch(
  storage: Storage,
  viewer: SearchViewer,
  projects: Project[],
  query: string,
  now: number,
): Promise<ResolvedSearch> {
  const parsed = parseIssueSearch(query, now);
  if (!parsed) return null;
  const memo = new Map<string, Promise<string[]>>();
  const once = (key: string, load: () => Promise<string[]>) => {
    if (!memo.has(key)) memo.set(key, load());
    return memo.get(key)!;
  };
  const me = (term: RefTerm): string => {
    if (!viewer.userId) throw searchError(`${term.token}: "me" needs a signed-in user`);
    return viewer.userId;
  };
  const userByEmail = async (term: RefTerm, email: string): Promise<string> => {
    const user = await storage.accounts.users.getByEmail(email);
    const member = user ? await storage.accounts.members.get(viewer.organization.id, user.id) : null;
    if (!user || !member) throw searchError(`${term.token}: no member of this organization has the email ${email}`);
    return user.id;
  };
  const myTeams = () =>
    once("my_teams", async () => (viewer.memberId ? (await storage.accounts.teams.listForMember(viewer.memberId)).map((team) => team.id) : []));
  const latestReleases = () => once("latest", () => latestReleasesOf(storage, projects, now));

  return mapSearch(parsed, async (term): Promise<SearchNode<ResolvedTerm>> => {
    switch (term.kind) {
      case "assignee_ref": {
        const userIds: string[] = [];
        const teamIds: string[] = [];
        let nobody = false;
        for (const ref of term.refs) {
          if (ref.type === "me") userIds.push(me(term));
          else if (ref.type === "my_teams") teamIds.push(...(await myTeams()));
          else if (ref.type === "none") nobody = true;
          else if (ref.type === "email") userIds.push(await userByEmail(term, ref.email));
          else {
            const team = await storage.accounts.teams.getBySlug(viewer.organization.id, ref.slug);
            if (!team) throw searchError(`${term.token}: no team #${ref.slug} in this organization`);
            teamIds.push(team.id);
          }
        }
        return { kind: "assignee", userIds, teamIds, nobody };
      }
      case "bookmarks_ref": {
        const userIds: string[] = [];
        for (const ref of term.refs) userIds.push(ref.type === "me" ? me(term) : await userByEmail(term, ref.email));
        return { kind: "bookmarked", userIds };
      }
      case "project_ref": {
        const projectIds = term.slugs.map((slug) => {
          const project = projects.find((candidate) => candidate.slug === slug);
          if (!project) throw searchError(`${term.token}: no project "${slug}" among the projects searched`);
          return project.id;
        });
        return { kind: "project", projectIds };
      }
      case "release_ref": {
        const values = [...term.values];
        if (term.latest) values.push(...(await latestReleases()).map((value) => ({ match: "exact" as const, value })));
        return term.first ? { kind: "first_release", values } : { kind: "tag", key: "release", values };
      }
    }
  });
}
