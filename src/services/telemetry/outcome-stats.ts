import type { OutcomeHour, Project } from "../../model";
import type { Storage } from "../../storage/types";

/** The hourly outcome counters (accepted, invalid, client_discard, …) of these projects in a window. */
export async function getOutcomeStats(storage: Storage, projects: Project[], window: { start: number; end: number }): Promise<OutcomeHour[]> {
  return storage.outcomes.hourly({ projectIds: projects.map((project) => project.id), ...window });
}
