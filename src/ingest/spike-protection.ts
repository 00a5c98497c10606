/**
 * Spike protection (issue 33 item 4): an automatic hourly limit per project and category, for
 * projects that switch it on (project option `quotas:spike-protection`). The rule (docs/security.md,
 * "Quotas and spike protection"): the limit for the current hour is ten times the project's average
 * accepted items per hour over the 168 hours (7 days) before it, never below
 * SPIKE_PROTECTION_MIN_PER_HOUR.
 * Every process computes it from the same shared outcome counters, so they agree; it is recomputed
 * at most every ten minutes per project (and when the hour changes), never per request.
 */
import type { QuotaCategory } from "../model";
import type { Storage } from "../storage/types";
import type { SpikeLimits } from "./quota-plan";

/** The categories spike protection limits: the high-volume ones. */
export const SPIKE_CATEGORIES: readonly QuotaCategory[] = ["error", "transaction", "span", "log_item"];
/** How many times the recent hourly average an hour may take. */
export const SPIKE_MULTIPLIER = 10;
/** Hours the average is taken over. */
export const SPIKE_HISTORY_HOURS = 168;

const HOUR_MS = 3_600_000;
const REFRESH_MS = 600_000;

/** Which quota category an accepted outcome's category counts under. */
const QUOTA_CATEGORY_OF: Record<string, QuotaCategory> = {
  default: "error",
  error: "error",
  security: "error",
  transaction: "transaction",
  span: "span",
  log_item: "log_item",
};

/** The limits from accepted counts over the history window (exported for tests). */
export function spikeLimitsFrom(acceptedByCategory: Partial<Record<QuotaCategory, number>>, minPerHour: number): SpikeLimits {
  const limits: SpikeLimits = {};
  for (const category of SPIKE_CATEGORIES) {
    const average = (acceptedByCategory[category] ?? 0) / SPIKE_HISTORY_HOURS;
    limits[category] = Math.max(minPerHour, Math.ceil(SPIKE_MULTIPLIER * average));
  }
  return limits;
}

export class SpikeLimitCache {
  private entries = new Map<string, { limits: SpikeLimits; hour: number; expires: number }>();

  constructor(
    private readonly storage: Storage,
    private readonly minPerHour: number,
  ) {}

  async limitsFor(projectId: string, now = Date.now()): Promise<SpikeLimits> {
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const cached = this.entries.get(projectId);
    if (cached && cached.hour === hour && cached.expires > now) return cached.limits;
    const rows = await this.storage.outcomes.hourly({ projectIds: [projectId], start: hour - SPIKE_HISTORY_HOURS * HOUR_MS, end: hour });
    const accepted: Partial<Record<QuotaCategory, number>> = {};
    for (const row of rows) {
      const category = row.outcome === "accepted" ? QUOTA_CATEGORY_OF[row.category] : undefined;
      if (category) accepted[category] = (accepted[category] ?? 0) + row.quantity;
    }
    const limits = spikeLimitsFrom(accepted, this.minPerHour);
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(projectId, { limits, hour, expires: now + REFRESH_MS });
    return limits;
  }
}
