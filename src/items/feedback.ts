/**
 * User feedback: the `feedback` item (an event with `type: "feedback"` and `contexts.feedback`, sent
 * by `captureFeedback` and the browser feedback widget) and the legacy `user_report` item
 * (`{event_id, name, email, comments}`), docs/protocol.md §6. Both are scrubbed like events
 * (src/items/scrub.ts) and stored through `FeedbackSink` (src/services/feedback/) before the
 * envelope is answered. A report without a message is dropped with an `invalid` outcome
 * (`invalid_json`, `missing_message`); the envelope's other items are unaffected.
 */
import { randomUUID } from "node:crypto";
import type { FeedbackInput } from "../model";
import { scrubbedText, scrubberOf } from "./scrub";
import { environmentOf, hexIdOf, isObject, jsonObjectOfText, textOf, timestampOf, type JsonObject } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";
import type { EnvelopeItem } from "../ingest/envelope";

export const FEEDBACK_CATEGORY = "feedback";
/** Sentry's limit for a feedback message and a user report's comments. */
const MAX_MESSAGE = 4096;
const MAX_FIELD = 1000;
const MAX_USER_REPORT_BYTES = 64 * 1024;

export interface FeedbackSink {
  /** Stores it (once per project and feedback id). */
  record(projectId: string, input: FeedbackInput): Promise<void>;
}

const clipped = (value: unknown, max = MAX_FIELD): string | null => textOf(value)?.slice(0, max) ?? null;

/** The scrubbed JSON of the item and its text, or null when it is not a JSON object. */
function scrubbedJson(item: EnvelopeItem, context: ItemContext): { raw: JsonObject; text: string } | null {
  const text = item.payload.toString("utf8");
  const raw = jsonObjectOfText(text);
  if (!raw) return null;
  const scrubber = scrubberOf(context);
  return { raw, text: scrubber ? scrubbedText(raw, text, scrubber) : text };
}

/** A `feedback` event as stored, or why it cannot be. */
export function feedbackOf(raw: JsonObject, text: string, context: ItemContext): FeedbackInput | string {
  const feedback = isObject(raw.contexts) && isObject(raw.contexts.feedback) ? raw.contexts.feedback : undefined;
  if (!feedback) return "missing_message";
  const message = textOf(feedback.message);
  if (message === undefined) return "missing_message";
  const headerId = hexIdOf(context.envelopeHeaders.event_id, 32);
  const trace = isObject(raw.contexts) && isObject(raw.contexts.trace) ? hexIdOf(raw.contexts.trace.trace_id, 32) : undefined;
  const timestamp = timestampOf(raw.timestamp);
  return {
    // The envelope header's id wins, as for events (docs/protocol.md §5).
    feedbackId: headerId ?? hexIdOf(raw.event_id, 32) ?? randomUUID().replaceAll("-", ""),
    kind: "feedback",
    name: clipped(feedback.name),
    email: clipped(feedback.contact_email),
    message: message.slice(0, MAX_MESSAGE),
    url: clipped(feedback.url) ?? (isObject(raw.request) ? clipped(raw.request.url) : null),
    associatedEventId: hexIdOf(feedback.associated_event_id, 32) ?? null,
    replayId: hexIdOf(feedback.replay_id, 32) ?? null,
    traceId: trace ?? null,
    environment: environmentOf(raw.environment),
    release: clipped(raw.release, 200),
    source: clipped(feedback.source, 64),
    payload: text,
    dateCreated: timestamp !== undefined && Math.abs(timestamp * 1000 - context.receivedAt) < 24 * 3600_000 ? Math.round(timestamp * 1000) : context.receivedAt,
  };
}

/** A legacy `user_report` as stored, or why it cannot be. Its id is the event it reports on. */
export function userReportOf(raw: JsonObject, text: string, context: ItemContext): FeedbackInput | string {
  const eventId = hexIdOf(raw.event_id, 32);
  if (eventId === undefined) return "invalid_json";
  const comments = textOf(raw.comments);
  if (comments === undefined) return "missing_message";
  return {
    feedbackId: eventId,
    kind: "user_report",
    name: clipped(raw.name),
    email: clipped(raw.email),
    message: comments.slice(0, MAX_MESSAGE),
    url: null,
    associatedEventId: eventId,
    replayId: null,
    traceId: null,
    environment: null,
    release: null,
    source: "user_report",
    payload: text,
    dateCreated: context.receivedAt,
  };
}

function feedbackProcessor(maxBytes: number, sink: FeedbackSink, parse: typeof feedbackOf): ItemProcessor {
  const parsed = (item: EnvelopeItem, context: ItemContext): FeedbackInput | ItemResult => {
    const json = scrubbedJson(item, context);
    const input = json ? parse(json.raw, json.text, context) : "invalid_json";
    return typeof input === "string" ? { records: [outcome(context, "invalid", FEEDBACK_CATEGORY, input)] } : input;
  };
  return {
    category: FEEDBACK_CATEGORY,
    maxBytes,
    process(item, context) {
      const input = parsed(item, context);
      return "records" in input ? input : { records: [outcome(context, "unsupported", FEEDBACK_CATEGORY, item.headers.type)] };
    },
    async processOrDefer(item, context) {
      const input = parsed(item, context);
      if ("records" in input) return input;
      await sink.record(context.projectId, input);
      return { records: [outcome(context, "accepted", FEEDBACK_CATEGORY, null)] };
    },
  };
}

export const feedbackItem = (maxBytes: number, sink: FeedbackSink): ItemProcessor => feedbackProcessor(maxBytes, sink, feedbackOf);
export const userReportItem = (sink: FeedbackSink): ItemProcessor => feedbackProcessor(MAX_USER_REPORT_BYTES, sink, userReportOf);
