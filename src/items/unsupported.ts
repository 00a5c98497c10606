import { outcome, type ItemProcessor } from "./types";

/**
 * Item types accepted and counted but not stored yet (each gets its own module as it is built).
 * Counting them keeps the envelope whole and makes the gap visible in outcomes.
 */
export const unsupportedItem = (category: string): ItemProcessor => ({
  category,
  maxBytes: null,
  process(item, context) {
    const itemCount = item.headers.item_count;
    const quantity = typeof itemCount === "number" && Number.isInteger(itemCount) && itemCount > 0 ? itemCount : 1;
    return { records: [outcome(context, "unsupported", category, item.headers.type, quantity)] };
  },
});
