/**
 * Sentry's issue-list URL parameters → our typed list parameters. The filters live in `query`
 * (Sentry's search syntax, parsed by src/search/); like Sentry, a missing `query` means
 * `is:unresolved` while an empty one lists every status. As in Sentry, `statsPeriod` is the sparkline
 * (24h, 14d) on a project's list, and on the organisation's the window (issues with events in the last
 * `statsPeriod`, or between `start` and `end`), where `groupStatsPeriod` picks the sparkline.
 */
import { AppError } from "../errors";
import { parseIssueListParams, type IssueListParams } from "../services/issues/list-issues";

const DEFAULT_QUERY = "is:unresolved";
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Sparklines we serve; "" leaves the stats out. */
export type StatsPeriod = "24h" | "14d" | "";

/** Which endpoint: Sentry's `statsPeriod` is the sparkline on a project's list, the time window on the organisation's. */
export type IssueListScope = "project" | "organization";

const SPARKLINES: Record<string, StatsPeriod> = { "24h": "24h", auto: "24h", "14d": "14d", "": "" };

export function statsPeriodOf(url: URL, scope: IssueListScope): StatsPeriod {
  const group = url.searchParams.get("groupStatsPeriod");
  if (group !== null) {
    if (Object.hasOwn(SPARKLINES, group)) return SPARKLINES[group]!;
    throw new AppError("bad_request", `invalid groupStatsPeriod: ${group} (supported: "24h", "14d", "auto", "")`);
  }
  const period = url.searchParams.get("statsPeriod");
  // The organisation list's statsPeriod is its window; "" still means "no stats" there, as it did.
  if (scope === "organization") return period === "" ? "" : "24h";
  if (period === null) return "24h";
  if (period === "24h" || period === "14d" || period === "") return period;
  throw new AppError("bad_request", `invalid statsPeriod: ${period} (supported: "24h", "14d", "")`);
}

/** Sentry's `statsPeriod` (`24h`, `14d`, `90d`, `30m`, `2w`…) as milliseconds. */
export function periodMs(value: string): number {
  const match = /^(\d{1,6})([smhdw])$/.exec(value);
  if (!match || Number(match[1]) === 0) {
    throw new AppError("bad_request", `invalid statsPeriod: ${value} (a number and a unit s, m, h, d or w, e.g. 24h, 14d)`);
  }
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

function instantOf(name: string, value: string): number {
  const at = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
    ? Date.parse(/T.*(?:Z|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes("T") ? value : `${value}Z`)
    : Number.NaN;
  if (Number.isNaN(at)) throw new AppError("bad_request", `invalid ${name}: ${value} (an ISO 8601 date, e.g. 2026-11-01T00:00:00Z)`);
  return at;
}

/** The window the list covers: `statsPeriod`, or `start` and `end`, or none (all time). */
export function windowOf(url: URL, now: number, scope: IssueListScope): IssueListParams["window"] {
  const params = url.searchParams;
  const period = scope === "organization" ? params.get("statsPeriod") : null;
  const start = params.get("start");
  const end = params.get("end");
  if (period && (start || end)) throw new AppError("bad_request", "invalid time window: give statsPeriod or start/end, not both");
  if (period) return { start: now - periodMs(period), end: null };
  if (start || end) {
    const window = { start: start ? instantOf("start", start) : null, end: end ? instantOf("end", end) : null };
    if (window.start !== null && window.end !== null && window.start > window.end) throw new AppError("bad_request", "invalid time window: start is after end");
    return window;
  }
  return undefined;
}

export function issueListParamsOf(url: URL, now: number, scope: IssueListScope): IssueListParams {
  const params = url.searchParams;
  const explicit = (name: string) => params.get(name) ?? undefined;
  const parsed = parseIssueListParams({
    sort: explicit("sort"),
    status: explicit("status"),
    level: explicit("level"),
    release: explicit("release"),
    environment: explicit("environment"),
    query: params.get("query") ?? DEFAULT_QUERY,
    cursor: explicit("cursor"),
    limit: explicit("limit"),
  });
  return { ...parsed, query: params.get("query") ?? DEFAULT_QUERY, window: windowOf(url, now, scope), stats14d: statsPeriodOf(url, scope) === "14d" };
}

/** `?project=1&project=2`; none, or Sentry's `-1`, means every project the caller may see. */
export function projectIdsOf(url: URL): string[] | null {
  const ids = url.searchParams.getAll("project").filter((id) => id !== "");
  if (ids.length === 0 || ids.includes("-1")) return null;
  const bad = ids.find((id) => !/^\d+$/.test(id));
  if (bad !== undefined) throw new AppError("bad_request", `invalid project id: ${bad}`);
  return ids;
}
