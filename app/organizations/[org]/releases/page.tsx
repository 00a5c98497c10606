import type { Metadata } from "next";
import Link from "next/link";
import { AppShell, releaseHref, releasesHref } from "@/components/app-shell";
import { requestNow } from "@/components/request-now";
import { AdoptionBar, CrashFree } from "@/components/releases/health-bits";
import { LastDeploy, ReleaseStatusPill } from "@/components/releases/release-bits";
import { SentryCliGuide } from "@/components/releases/sentry-cli-guide";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState, inputClass, RelativeTime } from "@/components/ui";
import { FilterBar } from "@/components/ui/filter-bar";
import { parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { getRuntime } from "@/src/runtime";
import { healthEnvironments, hourWindow, releaseHealth, type HealthFigures } from "@/src/services/releases/health";
import { listReleases, type ReleaseSummary } from "@/src/services/releases/releases";
import { requireWorkspace } from "@/app/_lib/session";
import type { Project } from "@/src/model";
import type { Access } from "@/src/services/accounts/access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Releases" };

/** How many releases the service is asked for; the page shows the first PAGE of them in the chosen order. */
const FETCH = 1000;
const PAGE = 100;

type Row = ReleaseSummary & { health: HealthFigures | null };

// Health columns (issue 37) sort too; a release without sessions in the range sorts last.
const SORTS = {
  date: { label: "Created", key: (release: Row) => release.dateCreated },
  adoption: { label: "Adoption", key: (release: Row) => release.health?.sessionsAdoption ?? -1 },
  crash_free_sessions: { label: "Crash-free sessions", key: (release: Row) => release.health?.crashFreeSessions ?? -1 },
  crash_free_users: { label: "Crash-free users", key: (release: Row) => release.health?.crashFreeUsers ?? -1 },
  released: { label: "Finalized", key: (release: Row) => release.dateReleased ?? -1 },
  deployed: { label: "Last deploy", key: (release: Row) => release.lastDeploy?.dateFinished ?? -1 },
  new_issues: { label: "New issues", key: (release: Row) => release.newIssues },
} as const;
type Sort = keyof typeof SORTS;
const isSort = (value: string | undefined): value is Sort => value !== undefined && Object.hasOwn(SORTS, value);

export default async function ReleasesPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const search = firstValues(await searchParams);
  const workspace = await requireWorkspace(org, hrefWith(`/organizations/${org}/releases`, search), search.project);
  const { organization, project } = workspace;
  return (
    <AppShell workspace={workspace} active="releases" projectHref={(p) => releasesHref(organization.slug, p)}>
      {project ? (
        <ProjectReleases access={workspace.access} project={project} organizationSlug={organization.slug} search={search} />
      ) : (
        <Card>
          <EmptyState title="This organization has no projects yet">
            <p>Releases belong to projects: create one first.</p>
            <Link href={`/organizations/${organization.slug}/projects#create`} className={`${buttonClass.primary} mt-4`}>
              Create project
            </Link>
          </EmptyState>
        </Card>
      )}
    </AppShell>
  );
}

async function ProjectReleases({
  access,
  project,
  organizationSlug,
  search,
}: {
  access: Access;
  project: Project;
  organizationSlug: string;
  search: Record<string, string | undefined>;
}) {
  const { storage, publicUrl } = getRuntime();
  const now = requestNow();
  const sort: Sort = isSort(search.sort) ? search.sort : "date";
  const query = search.query?.trim().slice(0, 200) || undefined;
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : {};
  const window = hourWindow(parsed.ok ? parsed.start : now - 86_400_000, parsed.ok ? parsed.end : now);
  const environment = search.environment?.slice(0, 64) || undefined;
  const [all, health, environments] = await Promise.all([
    listReleases(storage, access, { project, query, limit: FETCH }),
    releaseHealth(storage, [project.id], { ...window, ...(environment ? { environments: [environment] } : {}) }, { perProject: false }),
    healthEnvironments(storage, [project.id], window),
  ]);
  const rows: Row[] = all.map((release) => ({ ...release, health: health.get(release.version) ?? null }));
  const key = SORTS[sort].key;
  const releases = rows.sort((a, b) => key(b) - key(a) || b.dateCreated - a.dateCreated).slice(0, PAGE);
  const base = `/organizations/${organizationSlug}/releases`;
  const keep = { project: project.id, query, environment, ...rangeParams };
  const sortHref = (value: Sort) => hrefWith(base, { ...keep, sort: value === "date" ? undefined : value });

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Releases</h1>
        <p className="text-muted">
          {project.name} <span className="font-mono text-xs text-subtle">· {project.slug}</span>
        </p>
      </div>
      {all.length === 0 && !query ? (
        <Card className="p-5">
          <h2 className="mb-2 text-base font-semibold">No releases yet</h2>
          <SentryCliGuide publicUrl={publicUrl} organizationSlug={organizationSlug} projectSlug={project.slug} />
        </Card>
      ) : (
        <>
          <FilterBar
            path={base}
            keep={{ ...keep, sort: sort === "date" ? undefined : sort }}
            selects={[{
              name: "environment", label: "Environment", value: environment ?? "",
              options: [{ value: "", label: "All environments" }, ...[...new Set([...environments, ...(environment ? [environment] : [])])].map((value) => ({ value, label: value }))],
            }]}
          >
            <TimeRangePicker path={base} keep={{ project: project.id, query, environment, sort: sort === "date" ? undefined : sort }} range={parsed.ok ? parsed.range : null} now={now} />
          </FilterBar>
          {!parsed.ok ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{parsed.message} Showing the last 24 hours.</p> : null}
          <form action={base} className="flex flex-wrap items-center gap-2" role="search">
            <input type="hidden" name="project" value={project.id} />
            {environment ? <input type="hidden" name="environment" value={environment} /> : null}
            {Object.entries(rangeParams).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
            {sort !== "date" ? <input type="hidden" name="sort" value={sort} /> : null}
            <label htmlFor="release-query" className="sr-only">
              Search releases by version
            </label>
            <input id="release-query" name="query" defaultValue={query ?? ""} placeholder="Search versions" maxLength={200} className={`${inputClass} max-w-xs`} />
            <button type="submit" className={buttonClass.secondary}>
              Search
            </button>
          </form>
          <Card className="overflow-x-auto">
            <table className="w-full min-w-[64rem] text-sm" data-testid="releases-table">
              <thead className="border-b border-line bg-surface-2 text-left text-xs font-semibold tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    Version
                  </th>
                  {(Object.keys(SORTS) as Sort[]).map((value) => (
                    <th key={value} scope="col" className={`px-4 py-2 ${value === "new_issues" ? "text-right" : ""}`} aria-sort={value === sort ? "descending" : undefined}>
                      <Link href={sortHref(value)} className="hover:text-fg aria-[current=true]:text-fg" aria-current={value === sort ? "true" : undefined}>
                        {SORTS[value].label}
                        {value === sort ? " ↓" : ""}
                      </Link>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {releases.map((release) => (
                  <tr key={release.version} className="border-b border-line last:border-b-0 hover:bg-surface-2" data-testid="release-row">
                    <td className="max-w-[22rem] px-4 py-2.5">
                      <Link href={releaseHref(organizationSlug, release.version, project)} className="block truncate font-mono font-medium text-accent hover:underline" data-testid="release-version">
                        {release.version}
                      </Link>
                    </td>
                    <td className="px-4 py-2.5 text-muted">
                      <RelativeTime ms={release.dateCreated} now={now} />
                    </td>
                    <td className="px-4 py-2.5">
                      {release.health ? <AdoptionBar sessions={release.health.sessionsAdoption} users={release.health.adoption} /> : <span className="text-subtle">no sessions</span>}
                    </td>
                    <td className="px-4 py-2.5" data-sessions={release.health?.sessions ?? 0}>
                      <CrashFree value={release.health?.crashFreeSessions ?? null} testId="release-crash-free-sessions" />
                    </td>
                    <td className="px-4 py-2.5" data-users={release.health?.users ?? 0}>
                      <CrashFree value={release.health?.crashFreeUsers ?? null} testId="release-crash-free-users" />
                    </td>
                    <td className="px-4 py-2.5 text-muted" data-testid="release-finalized">
                      {release.dateReleased !== null ? <RelativeTime ms={release.dateReleased} now={now} /> : <ReleaseStatusPill summary={release} />}
                    </td>
                    <td className="px-4 py-2.5 text-muted" data-testid="release-last-deploy">
                      <LastDeploy deploy={release.lastDeploy} now={now} />
                    </td>
                    <td className="px-4 py-2.5 text-right tabular-nums" data-testid="release-new-issues">
                      {release.newIssues}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {releases.length === 0 ? (
              <EmptyState title="No releases match">
                <p>
                  No version contains “{query}”. <Link href={hrefWith(base, { project: project.id })} className="text-accent hover:underline">Show all releases</Link>
                </p>
              </EmptyState>
            ) : null}
          </Card>
          {all.length > PAGE ? (
            <p className="text-xs text-subtle">
              Showing {PAGE} of {all.length} releases{all.length >= FETCH ? " or more" : ""}: search by version to narrow the list.
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
