import type { Project } from "../../model";
import type { Storage } from "../../storage/types";

const DAY_MS = 86_400_000;
/** Counting unresolved issues pages through them; past this many the UI shows "100+". */
const UNRESOLVED_CAP = 100;

export interface ProjectSummary {
  project: Project;
  /** Error events accepted in the last 30 days (from the outcome counters, so no event scan). */
  acceptedErrors30d: number;
  /** Items of any category dropped in the last 30 days (filtered, rate limited, invalid, client discards). */
  dropped30d: number;
  unresolvedIssues: number;
  unresolvedCapped: boolean;
  lastSeen: number | null;
}

export async function summarizeProject(storage: Storage, project: Project, now: number): Promise<ProjectSummary> {
  const [totals, unresolved, latest] = await Promise.all([
    storage.outcomes.totals(project.id, now - 30 * DAY_MS),
    storage.issues.query({ projectIds: [project.id], status: "unresolved", sort: "date", limit: UNRESOLVED_CAP, now }),
    storage.issues.query({ projectIds: [project.id], sort: "date", limit: 1, now }),
  ]);
  let acceptedErrors30d = 0;
  let dropped30d = 0;
  for (const total of totals) {
    if (total.outcome === "accepted" && total.category === "error") acceptedErrors30d += total.quantity;
    else if (total.outcome !== "accepted") dropped30d += total.quantity;
  }
  return {
    project,
    acceptedErrors30d,
    dropped30d,
    unresolvedIssues: unresolved.items.length,
    unresolvedCapped: unresolved.nextCursor !== null,
    lastSeen: latest.items[0]?.lastSeen ?? null,
  };
}

/** True once any event has been grouped into an issue in the project (any status). */
export async function projectHasIssues(storage: Storage, projectId: string, now: number): Promise<boolean> {
  const page = await storage.issues.query({ projectIds: [projectId], sort: "date", limit: 1, now });
  return page.items.length > 0;
}
