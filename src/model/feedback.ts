/** User feedback: the `feedback` item (an event with contexts.feedback) or the legacy `user_report`. */
export type FeedbackKind = "feedback" | "user_report";

export interface FeedbackInput {
  /** 32 hex: the feedback event's id, or the legacy report's own (generated). */
  feedbackId: string;
  kind: FeedbackKind;
  name: string | null;
  email: string | null;
  message: string;
  url: string | null;
  associatedEventId: string | null;
  replayId: string | null;
  traceId: string | null;
  environment: string | null;
  release: string | null;
  source: string | null;
  /** The item's JSON after scrubbing, for the detail page. */
  payload: string;
  dateCreated: number;
}

export interface Feedback extends FeedbackInput {
  id: string;
  projectId: string;
  /** The issue of the associated event, once that event is stored. */
  issueId: string | null;
}
