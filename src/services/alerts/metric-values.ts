/**
 * The value of a metric alert's aggregate over its window, ending now (main thread, the alerts job).
 * Errors and their users come from the issue feed the ingest commit writes (minute-exact); sessions
 * from the hourly session counters (a window is widened to the whole hours it touches, as release
 * health reads them); p95 from the transaction samples. null: nothing to rate (no sessions or
 * transactions), which leaves a rule's state as it is.
 */
import type { MetricRule } from "../../model";
import type { Storage } from "../../storage/types";
import { crashFreeRate, zeroByHealth } from "../releases/health";

const HOUR = 3_600_000;
/** The most samples read for one p95: beyond 200,000 transactions in a window p95 is over the slowest 10,000. */
const P95_MAX_TAIL = 10_000;

export async function metricValue(storage: Storage, rule: MetricRule, now: number): Promise<number | null> {
  const since = now - rule.timeWindow * 60_000;
  switch (rule.aggregate) {
    case "count()":
    case "count_unique(user)": {
      const entries = (await storage.alerts.feed.projectEntries(rule.projectId, since))
        .filter((entry) => rule.environment === null || entry.tags.some(([key, value]) => key === "environment" && value === rule.environment));
      if (rule.aggregate === "count()") return entries.reduce((sum, entry) => sum + entry.count, 0);
      return new Set(entries.flatMap((entry) => entry.users)).size;
    }
    case "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate": {
      const start = Math.floor(since / HOUR) * HOUR;
      const end = Math.floor(now / HOUR) * HOUR + HOUR;
      const rows = await storage.sessions.stats({
        projectIds: [rule.projectId], start, end, interval: end - start, groupBy: [],
        ...(rule.environment === null ? {} : { environments: [rule.environment] }),
      });
      const byHealth = zeroByHealth();
      for (const row of rows) byHealth[row.health] += row.sessions;
      return crashFreeRate(byHealth);
    }
    case "p95(transaction.duration)": {
      const query = { projectIds: [rule.projectId], start: since, end: now + 1, ...(rule.environment === null ? {} : { environment: rule.environment }) };
      const count = (await storage.performance.transactions(query)).reduce((sum, t) => sum + t.count, 0);
      if (count === 0) return null;
      // Nearest rank: p95 is the sample at rank ceil(0.95 n) from the shortest, the (n − that + 1)-th longest.
      const tail = Math.min(P95_MAX_TAIL, count - Math.ceil(0.95 * count) + 1);
      const slowest = await storage.performance.slowest(query, tail);
      return slowest.at(-1)?.duration ?? null;
    }
  }
}
