import { clientReportItem } from "./client-report";
import { eventItem } from "./event";
import { sessionItem } from "./session";
import { sessionsItem } from "./sessions";
import { spanItem } from "./span";
import { transactionItem } from "./transaction";
import type { Symbolicator } from "../symbolication/symbolicator";
import type { ItemProcessor } from "./types";
import { unsupportedItem } from "./unsupported";
// Cron monitors and user feedback: stored by services the server hands in (AppItemSinks).
import { checkInItem, type CheckInSink } from "./check-in";
import { feedbackItem, userReportItem, type FeedbackSink } from "./feedback";

/**
 * Data category of each item type Relay knows that is not stored yet (docs/protocol.md §6.2), for
 * its `unsupported` outcome; unknown types count as "unknown". Stored types name their own category.
 */
const CATEGORY_BY_TYPE: Record<string, string> = {
  security: "security",
  raw_security: "security",
  nel: "security",
  attachment: "attachment",
  log: "log_item",
  otel_log: "log_item",
  trace_metric: "trace_metric",
  user_report: "feedback",
  feedback: "feedback",
  profile: "profile",
  profile_chunk: "profile_chunk",
  replay_event: "replay",
  replay_recording: "replay",
  replay_video: "replay",
  check_in: "monitor",
  statsd: "metric_bucket",
  metric_buckets: "metric_bucket",
};

/** Item types only Relays may send each other; an SDK envelope containing one is refused (400). */
export const INTERNAL_ITEM_TYPES: ReadonlySet<string> = new Set(["integration"]);

export interface ItemRegistry {
  processorFor(type: string): ItemProcessor;
  /** Source-map resolution for error events (also the store endpoint's); absent where none is set up. */
  readonly symbolicator?: Symbolicator | null;
}

/** Where items that are app data go (src/services/monitors, src/services/feedback); without one the type stays unsupported. */
export interface AppItemSinks {
  checkIns?: CheckInSink;
  feedback?: FeedbackSink;
}

export function createItemRegistry(limits: { maxEventBytes: number }, symbolicator: Symbolicator | null = null, sinks: AppItemSinks = {}): ItemRegistry {
  const stored = new Map<string, ItemProcessor>([
    ["event", eventItem(limits.maxEventBytes, symbolicator)],
    ["transaction", transactionItem(limits.maxEventBytes)],
    ["span", spanItem()],
    ["session", sessionItem()],
    ["sessions", sessionsItem()],
    ["client_report", clientReportItem()],
  ]);
  // Cron monitors and user feedback.
  if (sinks.checkIns) stored.set("check_in", checkInItem(sinks.checkIns));
  if (sinks.feedback) {
    stored.set("feedback", feedbackItem(limits.maxEventBytes, sinks.feedback));
    stored.set("user_report", userReportItem(sinks.feedback));
  }
  const unsupported = new Map<string, ItemProcessor>();
  return {
    symbolicator,
    processorFor(type) {
      const known = stored.get(type);
      if (known) return known;
      let processor = unsupported.get(type);
      if (!processor) {
        processor = unsupportedItem((Object.hasOwn(CATEGORY_BY_TYPE, type) ? CATEGORY_BY_TYPE[type] : undefined) ?? "unknown");
        if (unsupported.size < 64) unsupported.set(type, processor);
      }
      return processor;
    },
  };
}
