/**
 * Sentry's issue-search URL parameters → our typed list parameters. Sentry puts most filters inside
 * `query` (`is:unresolved level:error release:"1.0 beta" TypeError`); we lift the tokens we support
 * into their own parameters and pass what remains on as free text. Like Sentry, a missing `query`
 * means `is:unresolved`, while an empty one lists every status.
 */
import { AppError } from "../errors";
import { parseIssueListParams, type IssueListParams } from "../services/issues/list-issues";

const DEFAULT_QUERY = "is:unresolved";
/** Quoted values may contain spaces: `release:"1.0 beta"`. */
const TOKEN = /(?:[^\s"]+|"[^"]*")+/g;
const FILTER = /^([a-z.]+):(.+)$/;

const STATUS_OF_IS: Record<string, string> = {
  unresolved: "unresolved",
  resolved: "resolved",
  ignored: "ignored",
  archived: "ignored",
};

type LiftedFilters = Partial<Record<"status" | "level" | "release" | "environment", string>>;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

function liftFilters(query: string): { filters: LiftedFilters; text: string } {
  const filters: LiftedFilters = {};
  const rest: string[] = [];
  for (const token of query.match(TOKEN) ?? []) {
    const filter = FILTER.exec(token);
    const key = filter?.[1];
    const value = filter?.[2] === undefined ? undefined : unquote(filter[2]);
    if (key === "is" && value !== undefined) {
      // hasOwn: `is:constructor` must be an unsupported filter, not Object.prototype's property.
      const status = Object.hasOwn(STATUS_OF_IS, value) ? STATUS_OF_IS[value] : undefined;
      if (!status) throw new AppError("bad_request", `invalid query: unsupported filter is:${value}`);
      filters.status = status;
    } else if ((key === "level" || key === "release" || key === "environment") && value !== undefined) {
      filters[key] = value;
    } else {
      rest.push(token);
    }
  }
  return { filters, text: rest.join(" ") };
}

/** Stats windows we can serve; Sentry's "" leaves the stats out. */
export type StatsPeriod = "24h" | "";

export function statsPeriodOf(url: URL): StatsPeriod {
  const value = url.searchParams.get("statsPeriod") ?? url.searchParams.get("groupStatsPeriod") ?? "24h";
  if (value === "24h" || value === "") return value;
  throw new AppError("bad_request", `invalid statsPeriod: ${value} (supported: "24h", "")`);
}

export function issueListParamsOf(url: URL): IssueListParams {
  const params = url.searchParams;
  const { filters, text } = liftFilters(params.get("query") ?? DEFAULT_QUERY);
  const explicit = (name: string) => params.get(name) ?? undefined;
  return parseIssueListParams({
    sort: explicit("sort"),
    status: explicit("status") ?? filters.status,
    level: explicit("level") ?? filters.level,
    release: explicit("release") ?? filters.release,
    environment: explicit("environment") ?? filters.environment,
    query: text,
    cursor: explicit("cursor"),
    limit: explicit("limit"),
  });
}

/** `?project=1&project=2`; none, or Sentry's `-1`, means every project the caller may see. */
export function projectIdsOf(url: URL): string[] | null {
  const ids = url.searchParams.getAll("project").filter((id) => id !== "");
  if (ids.length === 0 || ids.includes("-1")) return null;
  const bad = ids.find((id) => !/^\d+$/.test(id));
  if (bad !== undefined) throw new AppError("bad_request", `invalid project id: ${bad}`);
  return ids;
}
