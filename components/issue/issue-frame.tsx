import Link from "next/link";
import type { ReactNode } from "react";
import type { Issue, Project } from "@/src/model";
import { formatCount } from "../format";
import { TabLinks, type TabLink } from "../tab-links";
import { LevelBadge, RelativeTime, StatusPill } from "../ui";
import { StatusActions } from "./status-actions";

export type IssueTab = "details" | "events";

/** Header, actions, counters and tabs shared by an issue's event view and its events list. */
export function IssueFrame({
  organizationSlug,
  issue,
  project,
  tab,
  now,
  canWrite,
  children,
}: {
  organizationSlug: string;
  issue: Issue;
  project: Project;
  tab: IssueTab;
  now: number;
  /** event:write: viewers see the status buttons disabled (the server refuses them anyway). */
  canWrite: boolean;
  children: ReactNode;
}) {
  const base = `/organizations/${organizationSlug}/issues/${issue.id}`;
  const tabs: TabLink<IssueTab>[] = [
    { id: "details", label: "Details", href: base },
    { id: "events", label: `Events (${formatCount(issue.count)})`, href: `${base}/events` },
  ];
  return (
    <div className="space-y-5">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-muted">
        <Link href={`/organizations/${organizationSlug}/issues?project=${project.id}`} className="hover:text-fg hover:underline">
          Issues
        </Link>
        <span aria-hidden>/</span>
        <span className="truncate">{project.name}</span>
        <span aria-hidden>/</span>
        <span className="font-mono text-fg">{issue.shortId}</span>
      </nav>
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]" data-testid="issue-title">
            {issue.title}
          </h1>
          {issue.culprit ? <p className="mt-0.5 font-mono text-xs text-muted [overflow-wrap:anywhere]">{issue.culprit}</p> : null}
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
            <LevelBadge level={issue.level} />
            <span data-testid="issue-status">
              <StatusPill issue={issue} />
            </span>
            <span className="font-mono font-medium text-muted">{issue.shortId}</span>
          </div>
        </div>
        <StatusActions organizationSlug={organizationSlug} issue={issue} canWrite={canWrite} />
      </div>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-lg border border-line bg-line sm:grid-cols-3 lg:grid-cols-6">
        <Stat label="Events" value={<span className="tabular-nums">{issue.count.toLocaleString("en-US")}</span>} />
        <Stat label="Users" value={<span className="tabular-nums">{issue.userCount.toLocaleString("en-US")}</span>} />
        <Stat label="First seen" value={<RelativeTime ms={issue.firstSeen} now={now} />} />
        <Stat label="Last seen" value={<RelativeTime ms={issue.lastSeen} now={now} />} />
        <Stat label="First release" value={<Release name={issue.firstRelease} />} />
        <Stat label="Last release" value={<Release name={issue.lastRelease} />} />
      </dl>
      <TabLinks
        label="Issue sections"
        items={tabs}
        active={tab}
        className="flex gap-1 border-b border-line"
        linkClassName="-mb-px border-b-2 border-transparent px-3 py-2 font-medium text-muted hover:text-fg aria-[current=page]:border-accent aria-[current=page]:text-fg"
      />
      {children}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0 bg-surface px-3 py-2">
      <dt className="text-[11px] font-semibold tracking-wide text-subtle uppercase">{label}</dt>
      <dd className="mt-0.5 truncate font-medium">{value}</dd>
    </div>
  );
}

function Release({ name }: { name: string | null }) {
  return name ? (
    <span className="font-mono text-xs" title={name}>
      {name}
    </span>
  ) : (
    <span className="text-subtle">—</span>
  );
}
