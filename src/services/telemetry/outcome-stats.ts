import type { OutcomeHour, OutcomeKind, Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { StatsWindow } from "./stats-window";

/** The hourly outcome counters (accepted, invalid, client_discard, …) of these projects in a window. */
export async function getOutcomeStats(storage: Storage, projects: Project[], window: { start: number; end: number }): Promise<OutcomeHour[]> {
  return storage.outcomes.hourly({ projectIds: projects.map((project) => project.id), ...window });
}

/** Every outcome, in the order the stats figures show them. */
export const OUTCOME_KINDS: readonly OutcomeKind[] = ["accepted", "filtered", "rate_limited", "invalid", "client_discard", "unsupported"];

const ERROR_CATEGORIES = new Set(["default", "error", "security"]);
/** As in Sentry's stats, categories `default`, `error` and `security` are all counted as `error`. */
export const statsCategory = (category: string) => (ERROR_CATEGORIES.has(category) ? "error" : category);

export interface DroppedReason {
  outcome: OutcomeKind;
  /** The filter, limit or SDK reason; null when ingest recorded none. */
  reason: string | null;
  category: string;
  quantity: number;
}

/** What the stats page shows of one data category in a window. */
export interface OutcomeReport {
  window: StatsWindow;
  /** Start (Unix ms) of each interval of the window. */
  intervals: number[];
  totals: Record<OutcomeKind, number>;
  /** Per outcome, the quantity of each interval. */
  series: Record<OutcomeKind, number[]>;
  /** Every non-accepted (outcome, reason, category) of the window, of all categories, largest first. */
  dropped: DroppedReason[];
  /** The categories that have any outcome in the window, sorted. */
  categories: string[];
}

const perOutcome = <T>(make: () => T) => Object.fromEntries(OUTCOME_KINDS.map((kind) => [kind, make()])) as Record<OutcomeKind, T>;

/**
 * Buckets hourly counters into the window's intervals for one category (totals and series), and
 * sums the dropped items of every category by reason. Rows outside the window are ignored.
 */
export function summarizeOutcomes(rows: readonly OutcomeHour[], window: StatsWindow, category: string): OutcomeReport {
  const intervals: number[] = [];
  for (let at = window.start; at < window.end; at += window.interval) intervals.push(at);
  const totals = perOutcome(() => 0);
  const series = perOutcome(() => intervals.map(() => 0));
  const dropped = new Map<string, DroppedReason>();
  const categories = new Set<string>();
  for (const row of rows) {
    if (row.hour < window.start || row.hour >= window.end) continue;
    const rowCategory = statsCategory(row.category);
    categories.add(rowCategory);
    if (row.outcome !== "accepted") {
      const key = JSON.stringify([row.outcome, row.reason, rowCategory]);
      const entry = dropped.get(key);
      if (entry) entry.quantity += row.quantity;
      else dropped.set(key, { outcome: row.outcome, reason: row.reason, category: rowCategory, quantity: row.quantity });
    }
    if (rowCategory !== category) continue;
    totals[row.outcome] += row.quantity;
    series[row.outcome][Math.floor((row.hour - window.start) / window.interval)]! += row.quantity;
  }
  const order = (kind: OutcomeKind) => OUTCOME_KINDS.indexOf(kind);
  return {
    window,
    intervals,
    totals,
    series,
    dropped: [...dropped.values()].sort(
      (a, b) => b.quantity - a.quantity || order(a.outcome) - order(b.outcome) || a.category.localeCompare(b.category) || (a.reason ?? "").localeCompare(b.reason ?? ""),
    ),
    categories: [...categories].sort(),
  };
}

/** The stats page's figures for these projects, one category, in a window. */
export async function getOutcomeReport(storage: Storage, projects: Project[], window: StatsWindow, category: string): Promise<OutcomeReport> {
  return summarizeOutcomes(await getOutcomeStats(storage, projects, window), window, category);
}
