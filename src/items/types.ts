import type { EnvelopeHeaders, EnvelopeItem } from "../ingest/envelope";
import type { IngestRecord } from "../model";
import type { FilterView } from "../processing/types";
import type { Scrubber } from "../processing/scrub/scrubber";

export interface ItemContext {
  projectId: string;
  envelopeHeaders: EnvelopeHeaders;
  /** Unix ms. */
  receivedAt: number;
  clientIp: string | undefined;
  /**
   * The connection's address for inbound filters alone, set even when "scrub IP addresses" keeps
   * `clientIp` empty; never stored. Absent: `clientIp` is the address.
   */
  clientAddress?: string | undefined;
  userAgent: string | undefined;
  /** The project's inbound filters (src/ingest/inbound-filters.ts); absent when none is on. */
  eventFilter?: EventFilter | undefined;
  /**
   * The project's data scrubbing (src/items/scrub.ts); null: its settings scrub nothing. Absent
   * where nobody looked the settings up (tests, benchmarks): the defaults apply, never none.
   */
  scrubber?: Scrubber | null;
}

/** An item's reason to be dropped (an outcome `filtered` reason), or null to keep it. */
export type EventFilter = (event: FilterView, client: { clientIp: string | undefined; userAgent: string | undefined }) => string | null;

export interface ItemResult {
  records: IngestRecord[];
  /** The id the response names, when this item created an event. */
  eventId?: string;
}

/** The same small shape for every item type (conventions: one module per envelope item type). */
export interface ItemProcessor {
  /** Sentry data category for outcomes and rate limits. */
  category: string;
  /** Largest payload accepted for one item of this type; larger rejects the envelope with 413. */
  maxBytes: number | null;
  process(item: EnvelopeItem, context: ItemContext): ItemResult;
  /**
   * What the pipeline calls when present: a promise only for work that must wait (an event whose
   * JavaScript frames are resolved through source maps, src/symbolication), else `process`'s answer.
   */
  processOrDefer?(item: EnvelopeItem, context: ItemContext): ItemResult | Promise<ItemResult>;
}

/** An outcome record for one item, for the per-item accounting every item gets. */
export function outcome(
  context: Pick<ItemContext, "projectId" | "receivedAt">,
  kind: Extract<IngestRecord, { kind: "outcome" }>["outcome"],
  category: string,
  reason: string | null,
  quantity = 1,
): Extract<IngestRecord, { kind: "outcome" }> {
  return { kind: "outcome", projectId: context.projectId, outcome: kind, category, reason, quantity, timestamp: context.receivedAt };
}
