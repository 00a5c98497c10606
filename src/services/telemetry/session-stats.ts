import type { Project, SessionStatsQuery, SessionStatsRow } from "../../model";
import type { Storage } from "../../storage/types";

/** Release-health counters of these projects: sessions and distinct users by health, per interval and in total. */
export async function getSessionStats(
  storage: Storage,
  projects: Project[],
  query: Omit<SessionStatsQuery, "projectIds">,
): Promise<SessionStatsRow[]> {
  return storage.sessions.stats({ ...query, projectIds: projects.map((project) => project.id) });
}
