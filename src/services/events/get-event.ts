import { AppError } from "../../errors";
import type { Project, StoredEvent, Storage } from "../../storage/types";

const EVENT_ID = /^[0-9a-f]{32}$/;

/** Event ids are accepted with or without dashes, any case, as Sentry does. */
export function normalizeEventId(raw: string): string | null {
  const id = raw.replace(/-/g, "").toLowerCase();
  return EVENT_ID.test(id) ? id : null;
}

export async function getEvent(storage: Storage, project: Project, rawEventId: string): Promise<StoredEvent> {
  const eventId = normalizeEventId(rawEventId);
  const event = eventId ? await storage.events.get(project.id, eventId) : null;
  if (!event) throw new AppError("not_found", "event not found");
  return event;
}
