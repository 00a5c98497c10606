import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { AppShell, releaseHref, releasesHref } from "@/components/app-shell";
import { orNotFound } from "@/components/app-error";
import { formatAbsolute } from "@/components/format";
import { IssueRow } from "@/components/issues/issue-row";
import { BundleList, ReleaseFileTable } from "@/components/releases/artifact-list";
import { ReleaseHealth } from "@/components/releases/release-health";
import { LastDeploy, ReleaseStatusPill } from "@/components/releases/release-bits";
import { requestNow } from "@/components/request-now";
import { decodedSegment, firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { Card, EmptyState, Pill, RelativeTime, Section } from "@/components/ui";
import { FilterBar } from "@/components/ui/filter-bar";
import { intervalFor, parseTimeRange, timeRangeParams } from "@/components/ui/time-range";
import { TimeRangePicker } from "@/components/ui/time-range-picker";
import { hourWindow } from "@/src/services/releases/health";
import { releaseHealthView } from "@/src/services/releases/release-health-page";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { issuesFirstSeenIn, releaseArtifacts, releaseForPage } from "@/src/services/releases/release-page";
import type { ReleaseDetail } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ org: string; version: string }>; searchParams: Promise<RawSearchParams> };

const ISSUE_LIMIT = 25;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Release ${decodedSegment((await params).version)}` };
}

export default async function ReleasePage({ params, searchParams }: Props) {
  const { org, version: segment } = await params;
  const version = decodedSegment(segment);
  const search = firstValues(await searchParams);
  const path = `/organizations/${org}/releases/${encodeURIComponent(version)}`;
  const workspace = await requireWorkspace(org, hrefWith(path, search), search.project);
  const { storage } = getRuntime();
  const release = await orNotFound(() => releaseForPage(storage, workspace.access, version));
  const slug = workspace.organization.slug;
  // The header shows the project the person came from when the release is one of its own.
  const headerProject = release.projects.find((project) => project.id === workspace.project?.id) ?? release.projects[0] ?? workspace.project;
  const now = requestNow();
  // Health (issue 37) in the URL's time range (default 24 h) and environment.
  const parsed = parseTimeRange(search, now);
  const rangeParams = parsed.ok ? timeRangeParams(parsed.range) : {};
  const window = hourWindow(parsed.ok ? parsed.start : now - 86_400_000, parsed.ok ? parsed.end : now);
  const interval = intervalFor(window.end - window.start);
  const environment = search.environment?.slice(0, 64) || undefined;
  const [firstSeen, artifacts, health] = await Promise.all([
    issuesFirstSeenIn(storage, release.projects, release.version, { limit: ISSUE_LIMIT, now }),
    releaseArtifacts(storage, release.projects, release.version),
    releaseHealthView(storage, workspace.access, release, { start: Math.floor(window.start / interval) * interval, end: window.end, interval, environment, now }),
  ]);
  const keep = { project: search.project, environment, ...rangeParams };
  const environments = [...new Set([...health.environments, ...(environment ? [environment] : [])])];

  return (
    <AppShell workspace={{ ...workspace, project: headerProject }} active="releases" projectHref={(p) => releasesHref(slug, p)}>
      <div className="space-y-8">
        <ReleaseHeader release={release} backHref={releasesHref(slug, headerProject)} now={now} />

        {/* Figures of the release; its health follows in its own section. */}
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="release-figures">
          <Figure label="New issues" value={release.newIssues} />
          <Figure label="Commits" value={release.commits.length} />
          <Figure label="Deploys" value={release.deploys.length} />
          <Figure label="Last deploy" value={<LastDeploy deploy={release.lastDeploy} now={now} />} />
        </div>

        <Section title="Health" id="health">
          <div className="mb-3">
            <FilterBar
              path={path}
              keep={keep}
              selects={[{ name: "environment", label: "Environment", value: environment ?? "", options: [{ value: "", label: "All environments" }, ...environments.map((value) => ({ value, label: value }))] }]}
            >
              <TimeRangePicker path={path} keep={{ project: search.project, environment }} range={parsed.ok ? parsed.range : null} now={now} />
            </FilterBar>
            {!parsed.ok ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{parsed.message} Showing the last 24 hours.</p> : null}
          </div>
          <ReleaseHealth
            view={health}
            newIssues={release.newIssues}
            previousHref={health.previous ? hrefWith(releaseHref(slug, health.previous.summary.version), { ...keep }) : null}
          />
        </Section>

        <div className="grid gap-8 xl:grid-cols-2">
          <Section title="Issues first seen in this release" id="issues">
            <Card className="overflow-hidden">
              {firstSeen.issues.length > 0 ? (
                <ul aria-label="Issues first seen in this release">
                  {firstSeen.issues.map((issue) => (
                    <IssueRow key={issue.id} issue={issue} now={now} href={`/organizations/${slug}/issues/${issue.id}`} />
                  ))}
                </ul>
              ) : (
                <EmptyState title="No new issues">
                  <p>No issue was first seen in this release.</p>
                </EmptyState>
              )}
            </Card>
            {firstSeen.more ? <p className="mt-2 text-xs text-subtle">The {ISSUE_LIMIT} newest are shown.</p> : null}
          </Section>
          <Section title="Regressions in this release" id="regressions">
            <Card className="overflow-hidden">
              {health.regressions.length > 0 ? (
                <ul aria-label="Regressions in this release" data-testid="regressions">
                  {health.regressions.map((issue) => (
                    <IssueRow key={issue.id} issue={issue} now={now} href={`/organizations/${slug}/issues/${issue.id}`} />
                  ))}
                </ul>
              ) : (
                <EmptyState title="No regressions">
                  <p>No resolved issue came back with this release.</p>
                </EmptyState>
              )}
            </Card>
          </Section>

          <div className="space-y-8">
            <Section title="Deploys" id="deploys">
              <Deploys release={release} now={now} />
            </Section>
            <Section title="Commits" id="commits">
              <Commits release={release} />
            </Section>
          </div>
        </div>

        <Section title="Artifacts" id="artifacts">
          {artifacts.bundles.length === 0 && artifacts.releaseFiles.length === 0 ? (
            <Card>
              <EmptyState title="No source maps for this release">
                <p>
                  Upload them with <code className="font-mono">sentry-cli sourcemaps upload --release &quot;{release.version}&quot; ./dist</code>.
                </p>
              </EmptyState>
            </Card>
          ) : (
            <div className="space-y-4">
              {artifacts.bundles.length > 0 ? <BundleList bundles={artifacts.bundles} now={now} /> : null}
              {artifacts.releaseFiles.length > 0 ? <ReleaseFileTable files={artifacts.releaseFiles} now={now} showRelease={false} /> : null}
            </div>
          )}
        </Section>
      </div>
    </AppShell>
  );
}

function ReleaseHeader({ release, backHref, now }: { release: ReleaseDetail; backHref: string; now: number }) {
  const facts: [string, ReactNode][] = [
    ["Created", <RelativeTime key="c" ms={release.dateCreated} now={now} />],
    ["Finalized", release.dateReleased !== null ? <RelativeTime key="f" ms={release.dateReleased} now={now} /> : "not yet"],
    ["First event", release.firstEvent !== null ? <RelativeTime key="fe" ms={release.firstEvent} now={now} /> : "none"],
    ["Last event", release.lastEvent !== null ? <RelativeTime key="le" ms={release.lastEvent} now={now} /> : "none"],
  ];
  return (
    <div className="space-y-2">
      <Link href={backHref} className="text-sm text-muted hover:text-fg">
        ← Releases
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="font-mono text-xl font-semibold [overflow-wrap:anywhere]" data-testid="release-title">
          {release.version}
        </h1>
        <ReleaseStatusPill summary={release} />
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="release-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-muted">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="flex gap-1.5">
          <dt className="text-muted">Projects</dt>
          <dd className="flex flex-wrap gap-1">
            {release.projects.map((project) => (
              <Pill key={project.id}>{project.slug}</Pill>
            ))}
          </dd>
        </div>
        {release.release?.url ? (
          <div className="flex gap-1.5">
            <dt className="text-muted">URL</dt>
            <dd className="break-all">{release.release.url}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card className="px-4 py-3">
      <p className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</p>
      <p className="mt-1 text-lg font-semibold tabular-nums" data-testid={`figure-${label.toLowerCase().replaceAll(" ", "-")}`}>
        {value}
      </p>
    </Card>
  );
}

function Deploys({ release, now }: { release: ReleaseDetail; now: number }) {
  if (release.deploys.length === 0) {
    return (
      <Card>
        <EmptyState title="No deploys">
          <p>
            Record one with <code className="font-mono">sentry-cli deploys new --release &quot;{release.version}&quot; -e production</code>.
          </p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <ul data-testid="deploys">
        {release.deploys.map((deploy) => (
          <li key={deploy.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-line px-4 py-2.5 first:border-t-0" data-testid="deploy">
            <span className="flex items-center gap-2">
              <Pill tone="accent">{deploy.environment}</Pill>
              {deploy.name ? <span className="font-medium">{deploy.name}</span> : null}
              {deploy.url ? <span className="text-xs break-all text-muted">{deploy.url}</span> : null}
            </span>
            <span className="text-sm text-muted" title={formatAbsolute(deploy.dateFinished)}>
              <RelativeTime ms={deploy.dateFinished} now={now} />
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Commits({ release }: { release: ReleaseDetail }) {
  if (release.commits.length === 0) {
    return (
      <Card>
        <EmptyState title="No commits">
          <p>
            Associate them with <code className="font-mono">sentry-cli releases set-commits &quot;{release.version}&quot; --local</code> (or{" "}
            <code className="font-mono">--auto</code>).
          </p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <ul data-testid="commits">
        {release.commits.map((commit) => (
          <li key={`${commit.repository}:${commit.id}`} className="border-t border-line px-4 py-2.5 first:border-t-0" data-testid="commit">
            <p className="line-clamp-2 font-medium [overflow-wrap:anywhere]">{commit.message?.split("\n", 1)[0] || <span className="text-subtle">No message</span>}</p>
            <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-muted">
              <code className="font-mono" title={commit.id}>
                {commit.id.slice(0, 12)}
              </code>
              <span>{commit.repository}</span>
              {commit.authorName || commit.authorEmail ? <span>{commit.authorName ?? commit.authorEmail}</span> : null}
              {commit.timestamp !== null ? <span title={formatAbsolute(commit.timestamp)}>{formatAbsolute(commit.timestamp).slice(0, 10)}</span> : null}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
