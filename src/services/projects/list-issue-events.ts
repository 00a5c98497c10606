/**
 * Reading an issue's events: the page list, one event picked by id or by position (Sentry's
 * `latest` / `oldest`), and an event's neighbours within its issue. These belong with the event
 * verbs in src/services/events/ and live here only until that folder's owner takes them.
 */
import { AppError } from "../../errors";
import type { EventNeighbours, Issue, Page, StoredEvent } from "../../model";
import type { Storage } from "../../storage/types";
import { normalizeEventId } from "../events/get-event";
import { getIssue } from "../issues/get-issue";

export async function listIssueEvents(
  storage: Storage,
  issueId: string,
  page: { limit: number; cursor?: string },
): Promise<{ issue: Issue; events: Page<StoredEvent> }> {
  const { issue } = await getIssue(storage, issueId);
  return { issue, events: await listEventsOfIssue(storage, issue, page) };
}

export type IssueEventSelector = "latest" | "oldest" | string;

export async function getIssueEvent(
  storage: Storage,
  issueId: string,
  selector: IssueEventSelector,
): Promise<{ issue: Issue; event: StoredEvent }> {
  const { issue } = await getIssue(storage, issueId);
  let event: StoredEvent | null = null;
  if (selector === "latest") event = await storage.events.latestForIssue(issue.id);
  else if (selector === "oldest") event = await storage.events.oldestForIssue(issue.id);
  else {
    const eventId = normalizeEventId(selector);
    event = eventId ? await storage.events.get(issue.projectId, eventId) : null;
    if (event && event.issueId !== issue.id) event = null;
  }
  if (!event) throw new AppError("not_found", "event not found");
  return { issue, event };
}

/** Older (`previous`) and newer (`next`) event of the same issue. */
export async function listEventNeighbours(storage: Storage, event: StoredEvent): Promise<EventNeighbours> {
  return storage.events.neighbours(event.issueId, event.eventId);
}

/** A page of the events of an issue already loaded (and authorised) by the caller, newest first. */
export async function listEventsOfIssue(storage: Storage, issue: Issue, page: { limit: number; cursor?: string }): Promise<Page<StoredEvent>> {
  return storage.events.listForIssue(issue.id, page.limit, page.cursor);
}
