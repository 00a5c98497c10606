import { AppError } from "../../errors";
import type { Issue, Project, StoredAttachment, StoredEvent, TagDistribution } from "../../model";
import type { Storage } from "../../storage/types";
import { requireProject, type Access } from "../accounts/access";
import { normalizeEventId } from "../events/get-event";
import { getIssue } from "../issues/get-issue";
import { shownTagDistribution } from "../issues/issue-tags";

export interface IssueEventView {
  issue: Issue;
  project: Project;
  /** The requested event, else the latest; null when the issue's events have expired. */
  event: StoredEvent | null;
  /** Newest-first paging, as Sentry's "Older" / "Newer" buttons. */
  olderEventId: string | null;
  newerEventId: string | null;
  latestEventId: string | null;
  oldestEventId: string | null;
  /** The first `ISSUE_PAGE_TAG_KEYS` tag keys, by name; `moreTagKeys` says how many were left out. */
  tags: TagDistribution[];
  moreTagKeys: number;
  /** The event's attachments (issue 38), oldest first. */
  attachments: StoredAttachment[];
}

/** Tag keys the issue page shows: an issue's events may carry thousands of distinct keys. */
export const ISSUE_PAGE_TAG_KEYS = 50;

/**
 * Loads an issue the person may see; another organisation's issue, or one of a project outside
 * their teams, is a 404 exactly like an issue that does not exist.
 */
export async function loadIssue(storage: Storage, access: Access, issueId: string): Promise<{ issue: Issue; project: Project }> {
  const found = await getIssue(storage, issueId);
  requireProject(access, found.project, "issue");
  return found;
}

export async function loadIssueEvent(
  storage: Storage,
  access: Access,
  issueId: string,
  rawEventId?: string,
): Promise<IssueEventView> {
  const { issue, project } = await loadIssue(storage, access, issueId);
  const [latest, oldest, tags] = await Promise.all([
    storage.events.latestForIssue(issue.id),
    storage.events.oldestForIssue(issue.id),
    shownTagDistribution(storage, issue.id, 5),
  ]);
  let event = latest;
  if (rawEventId !== undefined) {
    const eventId = normalizeEventId(rawEventId);
    event = eventId ? await storage.events.get(project.id, eventId) : null;
    if (!event || event.issueId !== issue.id) throw new AppError("not_found", "event not found");
  }
  const attachments = event ? await storage.attachments.listForEvent(project.id, event.eventId) : [];
  const neighbours = event
    ? await storage.events.neighbours(issue.id, event.eventId)
    : { previousEventId: null, nextEventId: null };
  return {
    issue,
    project,
    event,
    olderEventId: neighbours.previousEventId,
    newerEventId: neighbours.nextEventId,
    latestEventId: latest?.eventId ?? null,
    oldestEventId: oldest?.eventId ?? null,
    tags: tags.slice(0, ISSUE_PAGE_TAG_KEYS),
    moreTagKeys: Math.max(0, tags.length - ISSUE_PAGE_TAG_KEYS),
    attachments,
  };
}
