import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import Link from "next/link";
import { AppShell, issuesHref, keysHref, statsHref } from "@/components/app-shell";
import { CreateProjectForm } from "@/components/create-project-form";
import { formatCount } from "@/components/format";
import { Card, EmptyState, RelativeTime } from "@/components/ui";
import { getRuntime } from "@/src/runtime";
import { summarizeProject, type ProjectSummary } from "@/src/services/ui/project-summary";
import { requireWorkspace } from "@/app/_lib/session";
import { hasScope } from "@/src/services/accounts/access";
import { listTeams } from "@/src/services/accounts/teams";
import { createProjectAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { storage } = getRuntime();
  const workspace = await requireWorkspace(org, `/organizations/${org}/projects`);
  const canCreate = hasScope(workspace.access, "project:write");
  const teams = canCreate ? await listTeams(storage, workspace.access) : [];
  const now = requestNow();
  const summaries = await Promise.all(workspace.projects.map((project) => summarizeProject(storage, project, now)));
  const slug = workspace.organization.slug;
  return (
    <AppShell workspace={workspace} active="projects" projectHref={(p) => issuesHref(slug, p)}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="projects-title" className="min-w-0">
          <h1 id="projects-title" className="mb-3 text-xl font-semibold">
            Projects
          </h1>
          {summaries.length === 0 ? (
            <Card>
              <EmptyState title="No projects yet">
                <p>Create your first project to get a DSN.</p>
              </EmptyState>
            </Card>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2">
              {summaries.map((summary) => (
                <ProjectCard key={summary.project.id} summary={summary} organizationSlug={slug} now={now} />
              ))}
            </ul>
          )}
        </section>
        <section id="create" aria-labelledby="create-title" className="scroll-mt-20">
          <Card className="p-4">
            <h2 id="create-title" className="mb-3 text-base font-semibold">
              Create project
            </h2>
            {canCreate && teams.length === 0 ? (
              <p className="text-sm text-muted">
                Projects belong to a team. <Link href={`/settings/${slug}/teams`} className="text-accent underline">Create a team</Link> first.
              </p>
            ) : canCreate ? (
              <CreateProjectForm action={createProjectAction.bind(null, slug)} teams={teams.map(({ slug: teamSlug, name }) => ({ slug: teamSlug, name }))} />
            ) : (
              <p className="text-sm text-muted">Only owners and admins can create projects. Your role is {workspace.access.role}.</p>
            )}
          </Card>
        </section>
      </div>
    </AppShell>
  );
}

function ProjectCard({ summary, organizationSlug, now }: { summary: ProjectSummary; organizationSlug: string; now: number }) {
  const { project } = summary;
  return (
    <li>
      <Card className="flex h-full flex-col p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <Link href={issuesHref(organizationSlug, project)} className="block truncate text-base font-semibold hover:text-accent">
              {project.name}
            </Link>
            <p className="font-mono text-xs text-subtle">
              {project.slug} · id {project.id}
              {project.platform ? ` · ${project.platform}` : ""}
            </p>
          </div>
          <Link href={keysHref(organizationSlug, project)} className="shrink-0 rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-surface-2 hover:text-fg">
            Settings
          </Link>
        </div>
        <dl className="mt-4 grid grid-cols-3 gap-2 text-center">
          <Metric label="Unresolved" value={`${formatCount(summary.unresolvedIssues)}${summary.unresolvedCapped ? "+" : ""}`} />
          <Metric label="Errors 30d" value={formatCount(summary.acceptedErrors30d)} />
          <Metric
            label="Dropped 30d"
            value={formatCount(summary.dropped30d)}
            href={statsHref(organizationSlug, { project: project.id, statsPeriod: "30d" })}
            linkLabel={`Dropped in 30 days: ${summary.dropped30d}. Open the stats of ${project.name}`}
          />
        </dl>
        <p className="mt-3 text-xs text-subtle">
          {summary.lastSeen !== null ? (
            <>
              Last event <RelativeTime ms={summary.lastSeen} now={now} />
            </>
          ) : (
            <>No events yet — <Link href={keysHref(organizationSlug, project)} className="text-accent hover:underline">set up an SDK</Link></>
          )}
        </p>
      </Card>
    </li>
  );
}

function Metric({ label, value, href, linkLabel }: { label: string; value: string; href?: string; linkLabel?: string }) {
  return (
    <div className="relative flex flex-col-reverse rounded-md bg-surface-2 px-2 py-1.5 has-[a:hover]:bg-line">
      <dt className="text-[11px] text-subtle">{label}</dt>
      <dd className="text-base font-semibold tabular-nums">
        {href ? (
          // The whole tile is the link's target (the ::after covers it); the text stays the figure.
          <Link href={href} aria-label={linkLabel} className="text-accent decoration-dotted underline-offset-2 after:absolute after:inset-0 hover:underline" data-testid="dropped-link">
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
