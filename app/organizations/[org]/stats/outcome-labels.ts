import type { OutcomeKind } from "@/src/model";

export const OUTCOME_LABELS: Record<OutcomeKind, string> = {
  accepted: "Accepted",
  filtered: "Filtered",
  rate_limited: "Rate limited",
  invalid: "Invalid",
  client_discard: "Client discarded",
  unsupported: "Unsupported",
};

/** Distinct on light and dark surfaces; hex, as the chart's canvas fills need. */
export const OUTCOME_COLORS: Record<OutcomeKind, string> = {
  accepted: "#16a34a",
  filtered: "#7c3aed",
  rate_limited: "#d97706",
  invalid: "#dc2626",
  client_discard: "#0284c7",
  unsupported: "#71717a",
};

/** The categories the selector always offers (Sentry's main ones); any other seen in the range is added. */
export const STATS_CATEGORIES = ["attachment", "error", "log_item", "profile", "replay", "session", "span", "transaction"] as const;
