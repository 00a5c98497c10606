import { z } from "zod";
import { AppError } from "../../errors";
import { LEVELS } from "../../processing/types";
import { ISSUE_SORTS, ISSUE_STATUSES, type IssueSort, type IssueWithStats, type Page, type Project, type ResolvedSearch } from "../../model";
import { MAX_QUERY_CHARS } from "../../search/issue-search-syntax";
import { type Storage } from "../../storage/types";
import type { Access } from "../accounts/access";
import { resolveIssueSearch, type SearchViewer } from "./issue-search";

export const issueListParams = z.object({
  sort: z.enum(ISSUE_SORTS as [string, ...string[]]).default("date"),
  status: z.enum(ISSUE_STATUSES as [string, ...string[]]).optional(),
  level: z.enum(LEVELS).optional(),
  release: z.string().min(1).max(200).optional(),
  environment: z.string().min(1).max(200).optional(),
  /** Sentry's issue search (docs/search.md). */
  query: z.string().max(MAX_QUERY_CHARS).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type IssueListParams = z.infer<typeof issueListParams> & {
  /** Only issues with events in this window (Sentry's statsPeriod / start / end), Unix ms. */
  window?: { start: number | null; end: number | null };
  /** Also compute the 14-day sparkline. */
  stats14d?: boolean;
};

/** Parses untrusted list parameters (URL query) into typed ones; a bad value is a 400 naming it. */
export function parseIssueListParams(raw: Record<string, string | undefined>): IssueListParams {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = issueListParams.safeParse(cleaned);
  if (!parsed.success) {
    throw new AppError(
      "bad_request",
      "invalid issue list parameters",
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  return parsed.data;
}

export function viewerOf(access: Access): SearchViewer {
  return { organization: access.organization, userId: access.principal.user.id, memberId: access.member.id };
}

/** The search as storage takes it: the query's terms ANDed with the time window. */
async function searchOf(storage: Storage, access: Access, projects: Project[], params: IssueListParams, now: number): Promise<ResolvedSearch> {
  const search = await resolveIssueSearch(storage, viewerOf(access), projects, params.query ?? "", now);
  const window = params.window;
  const bounds: NonNullable<ResolvedSearch>[] = [];
  // An issue had events in [start, end] when it was last seen after start and first seen before end.
  if (window?.start != null) bounds.push({ kind: "compare", column: "last_seen", op: ">=", value: window.start });
  if (window?.end != null) bounds.push({ kind: "compare", column: "first_seen", op: "<=", value: window.end });
  if (bounds.length === 0) return search;
  return { kind: "and", nodes: search ? [search, ...bounds] : bounds };
}

export async function listIssues(
  storage: Storage,
  access: Access,
  projects: Project[],
  params: IssueListParams,
  now: number = Date.now(),
): Promise<Page<IssueWithStats>> {
  const search = await searchOf(storage, access, projects, params, now);
  return storage.issues.query({
    projectIds: projects.map((project) => project.id),
    sort: params.sort as IssueSort,
    status: params.status as IssueWithStats["status"] | undefined,
    level: params.level,
    release: params.release,
    environment: params.environment,
    search,
    stats14d: params.stats14d,
    cursor: params.cursor,
    limit: params.limit,
    now,
  });
}

/** The releases and environments a project's issues were seen in: the choices of the list's filters. */
export async function issueFacets(storage: Storage, project: Project): Promise<{ releases: string[]; environments: string[] }> {
  return storage.issues.facets(project.id);
}
