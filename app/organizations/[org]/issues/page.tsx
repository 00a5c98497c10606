import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { AppShell, issuesHref } from "@/components/app-shell";
import { appErrorOf, orNotFound } from "@/components/app-error";
import { IssueFilters, type IssueFilterValues } from "@/components/issues/issue-filters";
import { NoMatchingIssues, WaitingForEvents } from "@/components/issues/no-issues";
import { IssueRow, issueGridClass } from "@/components/issues/issue-row";
import { BULK_FORM_ID, IssueBulkActions } from "@/components/issues/bulk-actions";
import { assigneeChoices } from "@/src/services/issues/issue-triage-view";
import { ProjectPicker } from "@/components/issues/project-picker";
import { SavedSearches } from "@/components/issues/saved-searches";
import { KeyboardList } from "@/components/keyboard-list";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState } from "@/components/ui";
import { LEVELS } from "@/src/processing/types";
import { getRuntime } from "@/src/runtime";
import { listIssues, parseIssueListParams } from "@/src/services/issues/list-issues";
import { issueFacetsOf, issueProjectScope, type ProjectSelection } from "@/src/services/issues/issue-scope";
import { listSavedSearches } from "@/src/services/issues/saved-searches";
import { projectHasIssues } from "@/src/services/ui/project-summary";
import { requireWorkspace } from "@/app/_lib/session";
import type { IssueWithStats, Page, Project, SavedSearch } from "@/src/model";
import type { Access } from "@/src/services/accounts/access";
import { deleteSearch, saveSearch } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Issues" };

const FILTER_KEYS = ["query", "status", "level", "release", "environment", "sort"] as const;

/**
 * The issue list of one project (`?project=<id>`, the default: the first one), several
 * (`?project=1&project=2` or `?project=1,2`), every project the person sees (`?project=-1`) or their
 * teams' projects (`?project=mine`), with Sentry's search in the box.
 */
export default async function IssuesPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { org } = await params;
  const raw = await searchParams;
  const search = firstValues(raw);
  const projectValues = (Array.isArray(raw.project) ? raw.project : raw.project ? [raw.project] : []).flatMap((value) => value.split(","));
  const single = projectValues.length === 1 && /^\d+$/.test(projectValues[0]!) ? projectValues[0] : undefined;
  const workspace = await requireWorkspace(org, hrefWith(`/organizations/${org}/issues`, search), single);
  const { organization, project } = workspace;
  const base = `/organizations/${organization.slug}/issues`;
  const now = requestNow();
  const { storage } = getRuntime();
  const scope =
    projectValues.length === 0 || single
      ? { projects: project ? [project] : [], selection: "some" as ProjectSelection }
      : await orNotFound(() => issueProjectScope(storage, workspace.access, workspace.projects, projectValues));

  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(organization.slug, p)}>
      {project ? (
        <ProjectIssues
          access={workspace.access}
          allProjects={workspace.projects}
          projects={scope.projects}
          selection={scope.selection}
          projectParam={single ?? projectValues.join(",") ?? ""}
          organizationSlug={organization.slug}
          base={base}
          search={search}
          now={now}
          choices={await assigneeChoices(storage, organization)}
        />
      ) : (
        <Card>
          <EmptyState title="This organization has no projects yet">
            <p>Create a project to get a DSN for your SDK.</p>
            <Link href={`/organizations/${organization.slug}/projects#create`} className={`${buttonClass.primary} mt-4`}>
              Create project
            </Link>
          </EmptyState>
        </Card>
      )}
    </AppShell>
  );
}

async function ProjectIssues({
  access,
  allProjects,
  projects,
  selection,
  projectParam,
  organizationSlug,
  base,
  search,
  now,
  choices,
}: {
  access: Access;
  allProjects: Project[];
  projects: Project[];
  selection: ProjectSelection;
  projectParam: string;
  organizationSlug: string;
  base: string;
  search: Record<string, string | undefined>;
  now: number;
  /** Issue workflow: who the bulk actions can assign to. */
  choices: Awaited<ReturnType<typeof assigneeChoices>>;
}) {
  const { storage } = getRuntime();
  // The UI lists unresolved issues unless asked otherwise; "all" lifts the status filter.
  const status = search.status || "unresolved";
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, search[key]]));
  let page: Page<IssueWithStats> = { items: [], nextCursor: null };
  let problem: string | null = null;
  try {
    const listParams = parseIssueListParams({ ...filters, status: status === "all" ? undefined : status, cursor: search.cursor });
    page = await listIssues(storage, access, projects, listParams, now);
  } catch (error) {
    const appError = appErrorOf(error);
    if (appError?.code !== "bad_request") throw error;
    problem = [appError.message, ...appError.causes].join(" — ");
  }
  const facets = await issueFacetsOf(storage, projects);
  const savedSearches = await listSavedSearches(storage, access);
  const values = {
    project: projectParam,
    query: search.query ?? "",
    status,
    level: search.level ?? "",
    release: search.release ?? "",
    environment: search.environment ?? "",
    sort: search.sort || "date",
  };
  const keepParams = { project: projectParam, ...filters };
  const onlyProject = projects.length === 1 ? projects[0]! : null;
  const neverSeen = onlyProject !== null && page.items.length === 0 && !problem && !(await projectHasIssues(storage, onlyProject.id, now));
  const filtered = FILTER_KEYS.some((key) => key !== "sort" && key !== "status" && search[key]) || status !== "unresolved";
  const subtitle =
    selection === "all" ? "All projects" : selection === "mine" ? "My projects" : projects.map((project) => project.name).join(", ") || "No projects";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold">Issues</h1>
          <p className="text-muted" data-testid="issue-scope">
            {subtitle}
            {onlyProject ? <span className="font-mono text-xs text-subtle"> · {onlyProject.slug}</span> : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ProjectPicker action={base} projects={allProjects} selected={projects.map((project) => project.id)} selection={selection} keep={filters} />
          <p className={neverSeen ? "hidden" : "hidden text-xs text-subtle md:block"}>
            <kbd className="rounded border border-line px-1 font-mono">j</kbd> / <kbd className="rounded border border-line px-1 font-mono">k</kbd> to
            move, <kbd className="rounded border border-line px-1 font-mono">Enter</kbd> to open
          </p>
        </div>
      </div>
      {neverSeen && onlyProject ? (
        <Card>
          <WaitingForEvents project={onlyProject} organizationSlug={organizationSlug} />
        </Card>
      ) : (
        <IssueList
          project={onlyProject ?? projects[0] ?? null}
          projectParam={projectParam}
          organizationSlug={organizationSlug}
          base={base}
          values={values}
          facets={facets}
          page={page}
          problem={problem}
          keepParams={keepParams}
          filtered={filtered}
          cursor={search.cursor}
          now={now}
          savedSearches={savedSearches}
          userId={access.principal.user.id}
          bulk={
            // Issue workflow: bulk actions over the checked rows or everything the filters match, in the shown projects.
            page.items.length > 0 ? (
              <IssueBulkActions
                organizationSlug={organizationSlug}
                projectIds={projects.map((shown) => shown.id)}
                filters={Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === "string"))}
                choices={choices}
              />
            ) : null
          }
        />
      )}
    </div>
  );
}

function IssueList({
  project,
  projectParam,
  organizationSlug,
  base,
  values,
  facets,
  page,
  problem,
  keepParams,
  filtered,
  cursor,
  now,
  savedSearches,
  userId,
  bulk,
}: {
  project: Project | null;
  projectParam: string;
  organizationSlug: string;
  base: string;
  values: IssueFilterValues;
  facets: { releases: string[]; environments: string[] };
  page: Page<IssueWithStats>;
  problem: string | null;
  keepParams: Record<string, string | undefined>;
  filtered: boolean;
  cursor: string | undefined;
  now: number;
  savedSearches: SavedSearch[];
  userId: string;
  bulk: ReactNode;
}) {
  return (
    <>
      <IssueFilters key={JSON.stringify(values)} action={base} values={values} options={{ ...facets, levels: LEVELS }} />
      {problem ? (
        <div id="issue-query-error" role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200">
          <p className="font-medium">This search could not be run</p>
          <p className="text-sm" data-testid="issue-query-problem">
            {problem}
          </p>
          <Link href={hrefWith(base, { project: projectParam })} className="mt-1 inline-block text-sm underline">
            Reset filters
          </Link>
        </div>
      ) : null}
      {bulk}
      <SavedSearches
        base={base}
        projectParam={projectParam}
        searches={savedSearches}
        userId={userId}
        query={values.query}
        sort={values.sort}
        save={saveSearch.bind(null, organizationSlug)}
        remove={deleteSearch.bind(null, organizationSlug)}
      />
      <Card className="overflow-hidden">
        <div className={`${issueGridClass} hidden border-b border-line bg-surface-2 px-4 py-2 text-xs font-semibold tracking-wide text-muted uppercase md:grid`}>
          <span>Issue</span>
          <span>Last 24 hours</span>
          <span className="text-right">Events</span>
          <span className="text-right">Users</span>
        </div>
        {page.items.length > 0 ? (
          <KeyboardList>
            <ul aria-label="Issues">
              {page.items.map((issue) => (
                <IssueRow key={issue.id} issue={issue} now={now} href={`/organizations/${organizationSlug}/issues/${issue.id}`} bulkForm={BULK_FORM_ID} />
              ))}
            </ul>
          </KeyboardList>
        ) : problem || !project ? null : (
          <NoMatchingIssues project={project} base={base} filtered={filtered} status={values.status} />
        )}
      </Card>
      {cursor || page.nextCursor ? (
        <nav aria-label="Pages" className="flex justify-end gap-2">
          {cursor ? (
            <Link href={hrefWith(base, keepParams)} className={buttonClass.secondary}>
              ← First page
            </Link>
          ) : null}
          {page.nextCursor ? (
            <Link href={hrefWith(base, { ...keepParams, cursor: page.nextCursor })} className={buttonClass.secondary} rel="next">
              Next page →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
