import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import Link from "next/link";
import { AppShell, issuesHref, keysHref } from "@/components/app-shell";
import { appErrorOf, orNotFound } from "@/components/app-error";
import { IssueFilters } from "@/components/issues/issue-filters";
import { IssueRow, issueGridClass } from "@/components/issues/issue-row";
import { KeyboardList } from "@/components/keyboard-list";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { SetupGuide, storeUrlFor } from "@/components/setup-guide";
import { buttonClass, Card, EmptyState } from "@/components/ui";
import { LEVELS } from "@/src/processing/types";
import { getRuntime } from "@/src/runtime";
import { listIssues, parseIssueListParams, type IssueListParams } from "@/src/services/issues/list-issues";
import { dsnFor } from "@/src/services/projects/dsn";
import { projectHasIssues } from "@/src/services/ui/project-summary";
import { loadWorkspace } from "@/src/services/ui/workspace";
import type { IssueWithStats, Page, Project } from "@/src/storage/types";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Issues" };

const FILTER_KEYS = ["query", "status", "level", "release", "environment", "sort"] as const;

export default async function IssuesPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const { storage } = getRuntime();
  const workspace = await orNotFound(() => loadWorkspace(storage, org, search.project));
  const { organization, project } = workspace;
  const base = `/organizations/${organization.slug}/issues`;
  const now = requestNow();

  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(organization.slug, p)}>
      {project ? (
        <ProjectIssues project={project} organizationSlug={organization.slug} base={base} search={search} now={now} />
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
  project,
  organizationSlug,
  base,
  search,
  now,
}: {
  project: Project;
  organizationSlug: string;
  base: string;
  search: Record<string, string | undefined>;
  now: number;
}) {
  const { storage } = getRuntime();
  // The UI lists unresolved issues unless asked otherwise; "all" lifts the status filter.
  const status = search.status || "unresolved";
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, search[key]]));
  let listParams: IssueListParams | null = null;
  let page: Page<IssueWithStats> = { items: [], nextCursor: null };
  let problem: string | null = null;
  try {
    listParams = parseIssueListParams({ ...filters, status: status === "all" ? undefined : status, cursor: search.cursor });
    page = await listIssues(storage, [project], listParams, now);
  } catch (error) {
    const appError = appErrorOf(error);
    if (appError?.code !== "bad_request") throw error;
    problem = [appError.message, ...appError.causes].join(" — ");
  }
  const facets = await storage.issues.facets(project.id);
  const values = {
    project: project.id,
    query: search.query ?? "",
    status,
    level: search.level ?? "",
    release: search.release ?? "",
    environment: search.environment ?? "",
    sort: search.sort || "date",
  };
  const keepParams = { project: project.id, ...filters };
  const filtered = FILTER_KEYS.some((key) => key !== "sort" && key !== "status" && search[key]) || status !== "unresolved";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold">Issues</h1>
          <p className="text-muted">
            {project.name} <span className="font-mono text-xs text-subtle">· {project.slug}</span>
          </p>
        </div>
        <p className="hidden text-xs text-subtle md:block">
          <kbd className="rounded border border-line px-1 font-mono">j</kbd> / <kbd className="rounded border border-line px-1 font-mono">k</kbd> to
          move, <kbd className="rounded border border-line px-1 font-mono">Enter</kbd> to open
        </p>
      </div>
      <IssueFilters key={JSON.stringify(values)} action={base} values={values} options={{ ...facets, levels: LEVELS }} />
      {problem ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200">
          <p className="font-medium">These filters could not be applied</p>
          <p className="text-sm">{problem}</p>
          <Link href={hrefWith(base, { project: project.id })} className="mt-1 inline-block text-sm underline">
            Reset filters
          </Link>
        </div>
      ) : null}
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
                <IssueRow key={issue.id} issue={issue} now={now} href={`/organizations/${organizationSlug}/issues/${issue.id}`} />
              ))}
            </ul>
          </KeyboardList>
        ) : problem ? null : (
          <NoIssues project={project} organizationSlug={organizationSlug} base={base} filtered={filtered} status={status} now={now} />
        )}
      </Card>
      {search.cursor || page.nextCursor ? (
        <nav aria-label="Pages" className="flex justify-end gap-2">
          {search.cursor ? (
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
    </div>
  );
}

async function NoIssues({
  project,
  organizationSlug,
  base,
  filtered,
  status,
  now,
}: {
  project: Project;
  organizationSlug: string;
  base: string;
  filtered: boolean;
  status: string;
  now: number;
}) {
  const { storage, publicUrl } = getRuntime();
  if (await projectHasIssues(storage, project.id, now)) {
    if (!filtered) {
      return (
        <EmptyState title="No unresolved issues">
          <p>Everything in {project.name} is resolved or ignored.</p>
          <Link href={hrefWith(base, { project: project.id, status: "all" })} className={`${buttonClass.secondary} mt-4`}>
            Show all issues
          </Link>
        </EmptyState>
      );
    }
    return (
      <EmptyState title="No issues match these filters">
        <p>{status === "unresolved" ? "Try another search, or include resolved and ignored issues." : "Try another search or fewer filters."}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-2">
          <Link href={hrefWith(base, { project: project.id })} className={buttonClass.secondary}>
            Clear filters
          </Link>
        </div>
      </EmptyState>
    );
  }
  const key = (await storage.keys.listByProject(project.id)).find((candidate) => candidate.isActive);
  return (
    <div className="px-4 py-8 sm:px-8" data-testid="waiting-for-events">
      <div className="mx-auto max-w-3xl">
        <div className="mb-5 flex items-center gap-3">
          <span className="relative flex size-3">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent opacity-60 motion-reduce:animate-none" />
            <span className="relative inline-flex size-3 rounded-full bg-accent" />
          </span>
          <div>
            <h2 className="text-base font-semibold">Waiting for the first event</h2>
            <p className="text-muted">Point an SDK at this project&apos;s DSN; errors show up here within seconds.</p>
          </div>
        </div>
        {key ? (
          <SetupGuide dsn={dsnFor(publicUrl, key)} storeUrl={storeUrlFor(publicUrl, project.id, key.publicKey)} />
        ) : (
          <p>
            This project has no active key.{" "}
            <Link href={keysHref(organizationSlug, project)} className="text-accent underline">
              Create one in the project settings
            </Link>
            .
          </p>
        )}
      </div>
    </div>
  );
}
