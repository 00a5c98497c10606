/** User feedback in Sentry's `UserReportSerializer` shape, with the new-style fields Periscope keeps beside it. */
import type { Feedback, Issue } from "../../model";
import { isoDate } from "./common";

export function serializeFeedback(feedback: Feedback, issue: Pick<Issue, "id" | "shortId" | "title"> | null) {
  return {
    id: feedback.id,
    eventID: feedback.associatedEventId ?? feedback.feedbackId,
    feedbackID: feedback.feedbackId,
    name: feedback.name ?? "",
    email: feedback.email ?? "",
    comments: feedback.message,
    dateCreated: isoDate(feedback.dateCreated),
    user: null,
    event: feedback.associatedEventId ? { id: feedback.associatedEventId, eventID: feedback.associatedEventId } : null,
    issue: issue ? { id: issue.id, shortId: issue.shortId, title: issue.title } : null,
    url: feedback.url,
    replayId: feedback.replayId,
    traceId: feedback.traceId,
    environment: feedback.environment,
    release: feedback.release,
    source: feedback.source,
    kind: feedback.kind,
  };
}
