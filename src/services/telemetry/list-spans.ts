import type { Page, Project, SpanListQuery, StoredSpan } from "../../model";
import type { Storage } from "../../storage/types";

/**
 * Spans of these projects, newest first. With `isSegment: true` these are the transactions: the
 * root span of every transaction event and every streamed segment (page load, navigation, …).
 */
export async function listSpans(storage: Storage, projects: Project[], query: Omit<SpanListQuery, "projectIds">): Promise<Page<StoredSpan>> {
  if (projects.length === 0) return { items: [], nextCursor: null };
  return storage.spans.list({ ...query, projectIds: projects.map((project) => project.id) });
}
