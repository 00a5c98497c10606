import { AppError } from "../../errors";
import type { Project, StoredEvent, StoredTransaction } from "../../model";
import type { Storage } from "../../storage/types";
import { normalizeEventId } from "./get-event";

export type FoundEvent = { kind: "error"; event: StoredEvent } | { kind: "transaction"; transaction: StoredTransaction };

/** A project's event by id, whichever kind it is: an error event (with its issue) or a transaction. */
export async function findEvent(storage: Storage, project: Project, rawEventId: string): Promise<FoundEvent> {
  const eventId = normalizeEventId(rawEventId);
  if (eventId) {
    const event = await storage.events.get(project.id, eventId);
    if (event) return { kind: "error", event };
    const transaction = await storage.transactions.get(project.id, eventId);
    if (transaction) return { kind: "transaction", transaction };
  }
  throw new AppError("not_found", "event not found");
}
