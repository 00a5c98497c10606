/**
 * `GET /api/0/organizations/{org}/stats_v2/` — Sentry's outcome statistics (`sentry/snuba/outcomes.py`):
 *
 *   { start, end, intervals: [iso…], groups: [{ by: {outcome, category, reason, project}, totals: {"sum(quantity)": n}, series: {…} }] }
 *
 * From the `outcomes` counters ingest keeps: `accepted`, `invalid`, `filtered`, `rate_limited`,
 * `client_discard` (from client reports, with the SDK's reason) and Periscope's own `unsupported`
 * (item types accepted but not stored yet; Sentry has no such outcome). As in Sentry, categories
 * `default`, `error` and `security` are all reported (and filtered) as `error`, and a query must
 * group or filter by category.
 */
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { getOutcomeStats, OUTCOME_KINDS as OUTCOMES, statsCategory as apiCategory } from "../../services/telemetry/outcome-stats";
import type { OutcomeHour, Project } from "../../model";
import { json } from "../handle";
import { intervalsOf, isoSeconds, statsWindowOf } from "../../services/telemetry/stats-window";

const FIELD = "sum(quantity)";
const GROUP_BY = ["outcome", "category", "reason", "project"] as const;
type OutcomeGroupBy = (typeof GROUP_BY)[number];

function byValue(key: OutcomeGroupBy, row: OutcomeHour): string | number | null {
  switch (key) {
    case "outcome":
      return row.outcome;
    case "category":
      return apiCategory(row.category);
    case "reason":
      return row.reason;
    case "project":
      return Number(row.projectId);
  }
}

export async function statsV2Response(request: Request, projects: Project[]): Promise<Response> {
  const { storage } = getRuntime();
  const url = new URL(request.url);
  const params = url.searchParams;
  const fields = params.getAll("field");
  if (fields.length === 0) throw new AppError("bad_request", 'At least one "field" is required.');
  const badField = fields.find((field) => field !== FIELD);
  if (badField !== undefined) throw new AppError("bad_request", `Invalid field: "${badField}" (supported: ${FIELD})`);
  const groupBy = [...new Set(params.getAll("groupBy"))];
  const badGroup = groupBy.find((key) => !(GROUP_BY as readonly string[]).includes(key));
  if (badGroup !== undefined) throw new AppError("bad_request", `Invalid groupBy: "${badGroup}" (supported: ${GROUP_BY.join(", ")})`);
  const keys = groupBy as OutcomeGroupBy[];
  const categories = params.getAll("category").map(apiCategory);
  if (categories.length === 0 && !keys.includes("category")) throw new AppError("bad_request", "Query must have category as groupby or filter");
  const outcomes = params.getAll("outcome");
  const badOutcome = outcomes.find((outcome) => !(OUTCOMES as readonly string[]).includes(outcome));
  if (badOutcome !== undefined) throw new AppError("bad_request", `Invalid outcome: "${badOutcome}"`);
  const reasons = params.getAll("reason");
  const window = statsWindowOf(url, Date.now());

  const intervals = intervalsOf(window);
  const groups = new Map<string, { by: Record<string, string | number | null>; total: number; series: number[] }>();
  for (const row of await getOutcomeStats(storage, projects, window)) {
    if (categories.length > 0 && !categories.includes(apiCategory(row.category))) continue;
    if (outcomes.length > 0 && !outcomes.includes(row.outcome)) continue;
    if (reasons.length > 0 && !reasons.includes(row.reason ?? "")) continue;
    const by = Object.fromEntries(keys.map((key) => [key, byValue(key, row)]));
    const id = JSON.stringify(keys.map((key) => by[key]));
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { by, total: 0, series: intervals.map(() => 0) }));
    group.total += row.quantity;
    const slot = Math.floor((row.hour - window.start) / window.interval);
    group.series[slot] = (group.series[slot] ?? 0) + row.quantity;
  }
  const body = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => ({ by: group.by, totals: { [FIELD]: group.total }, series: { [FIELD]: group.series } }));
  return json({ start: isoSeconds(window.start), end: isoSeconds(window.end), intervals, groups: body });
}
