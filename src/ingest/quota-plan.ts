/**
 * What the ingest path enforces for one project: its quotas, its organisation's, and its spike
 * protection limits, compiled once per key-cache entry (src/ingest/keys.ts) into rules that name the
 * shared counter each one counts in. A project with none has no plan (null) and pays nothing per
 * request.
 */
import { QUOTA_REASONS, quotaCounterName, type Project, type QuotaCategory, type QuotaSet, type QuotaWindow } from "../model";

export interface QuotaRule {
  category: QuotaCategory;
  window: QuotaWindow;
  limit: number;
  scope: "project" | "organization";
  /** The outcome reason and `X-Sentry-Rate-Limits` reason code. */
  reason: string;
  /** The shared counter's name: whose (scope id), which category, which window. */
  counter: string;
}

export interface QuotaPlan {
  rules: QuotaRule[];
}

/** Spike protection's hourly limit per category for one project (src/ingest/spike-protection.ts). */
export type SpikeLimits = Partial<Record<QuotaCategory, number>>;

export function compileQuotaPlan(project: Project, quotas: QuotaSet, spike: SpikeLimits | null): QuotaPlan | null {
  const rules: QuotaRule[] = [];
  for (const quota of quotas.project) {
    rules.push({ category: quota.category, window: quota.window, limit: quota.limit, scope: "project", reason: QUOTA_REASONS.project, counter: quotaCounterName("p", project.id, quota.category, quota.window) });
  }
  for (const quota of quotas.organization) {
    rules.push({
      category: quota.category,
      window: quota.window,
      limit: quota.limit,
      scope: "organization",
      reason: QUOTA_REASONS.organization,
      counter: quotaCounterName("o", project.organizationId, quota.category, quota.window),
    });
  }
  if (spike) {
    for (const [category, limit] of Object.entries(spike) as [QuotaCategory, number][]) {
      rules.push({ category, window: "hour", limit, scope: "project", reason: QUOTA_REASONS.spike, counter: quotaCounterName("s", project.id, category, "hour") });
    }
  }
  return rules.length > 0 ? { rules } : null;
}
