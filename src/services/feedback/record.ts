/** Stores feedback ingest parsed (src/items/feedback.ts), linked to its event's issue when that is known. */
import type { FeedbackInput } from "../../model";
import type { FeedbackSink } from "../../items/feedback";
import type { Storage } from "../../storage/types";

export async function recordFeedback(storage: Storage, projectId: string, input: FeedbackInput): Promise<void> {
  const stored = await storage.feedback.insert(projectId, input);
  if (!stored?.associatedEventId) return;
  const event = await storage.events.get(projectId, stored.associatedEventId);
  if (event) await storage.feedback.setIssue(stored.id, event.issueId);
}

export function feedbackSink(storage: Storage): FeedbackSink {
  return { record: (projectId, input) => recordFeedback(storage, projectId, input) };
}
