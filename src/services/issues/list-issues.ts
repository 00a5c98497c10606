import { z } from "zod";
import { AppError } from "../../errors";
import { LEVELS } from "../../processing/types";
import { ISSUE_STATUSES, type IssueWithStats, type Page, type Project } from "../../model";
import { type Storage } from "../../storage/types";

export const issueListParams = z.object({
  sort: z.enum(["date", "new", "freq"]).default("date"),
  status: z.enum(ISSUE_STATUSES as [string, ...string[]]).optional(),
  level: z.enum(LEVELS).optional(),
  release: z.string().min(1).max(200).optional(),
  environment: z.string().min(1).max(200).optional(),
  query: z.string().max(500).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type IssueListParams = z.infer<typeof issueListParams>;

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

export async function listIssues(
  storage: Storage,
  projects: Project[],
  params: IssueListParams,
  now: number = Date.now(),
): Promise<Page<IssueWithStats>> {
  return storage.issues.query({
    projectIds: projects.map((project) => project.id),
    sort: params.sort,
    status: params.status as IssueWithStats["status"] | undefined,
    level: params.level,
    release: params.release,
    environment: params.environment,
    text: params.query,
    cursor: params.cursor,
    limit: params.limit,
    now,
  });
}

/** The releases and environments a project's issues were seen in: the choices of the list's filters. */
export async function issueFacets(storage: Storage, project: Project): Promise<{ releases: string[]; environments: string[] }> {
  return storage.issues.facets(project.id);
}
