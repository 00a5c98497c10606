import Link from "next/link";
import type { IssueWithStats } from "@/src/model";
import { formatCount } from "../format";
import { LevelBadge, LevelBar, RelativeTime, Sparkline, StatusPill } from "../ui";

export const issueGridClass = "grid grid-cols-[1fr_auto_auto] items-center gap-x-3 md:grid-cols-[1fr_7rem_4.5rem_4.5rem] md:gap-x-4";

/** One issue in the list; the whole row is the link so j/k focus and Enter open it. */
export function IssueRow({ issue, href, now, bulkForm }: { issue: IssueWithStats; href: string; now: number; bulkForm?: string }) {
  const quietStatus = issue.status === "unresolved" && issue.substatus === "ongoing";
  return (
    <li className="relative border-t border-line first:border-t-0">
      {/* Issue workflow: the bulk actions' checkbox, beside the row link (not inside it). */}
      {bulkForm ? (
        <input type="checkbox" name="id" value={issue.id} form={bulkForm} aria-label={`Select ${issue.shortId}`} data-testid="issue-select" className="absolute top-4 left-1.5 z-10" />
      ) : null}
      <Link
        href={href}
        data-nav-item
        data-testid="issue-row"
        className={`relative ${issueGridClass} px-4 py-3 outline-none hover:bg-surface-2 focus-visible:bg-accent-soft focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-inset`}
      >
        <LevelBar level={issue.level} />
        <div className="min-w-0">
          <p className="line-clamp-2 font-semibold [overflow-wrap:anywhere] text-fg sm:line-clamp-1" title={issue.title}>
            {issue.title}
          </p>
          {issue.culprit ? (
            <p className="truncate font-mono text-xs text-muted" title={issue.culprit}>
              {issue.culprit}
            </p>
          ) : null}
          <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-subtle">
            <LevelBadge level={issue.level} />
            <span className="font-mono font-medium text-muted">{issue.shortId}</span>
            {quietStatus ? null : <StatusPill issue={issue} />}
            <span>
              Last seen <RelativeTime ms={issue.lastSeen} now={now} />
            </span>
            <span className="hidden sm:inline">
              First seen <RelativeTime ms={issue.firstSeen} now={now} />
            </span>
            {issue.lastRelease ? (
              <span className="hidden max-w-48 truncate font-mono lg:inline" title={`Last release: ${issue.lastRelease}`}>
                {issue.lastRelease}
              </span>
            ) : null}
          </div>
        </div>
        <div className="hidden md:block">
          <Sparkline buckets={issue.stats24h} now={now} />
        </div>
        <div className="text-right tabular-nums" title={`${issue.count} events`}>
          <span className="font-medium">{formatCount(issue.count)}</span>
          <span className="block text-[11px] text-subtle md:hidden">events</span>
        </div>
        <div className="text-right tabular-nums" title={`${issue.userCount} users`}>
          <span className="font-medium">{formatCount(issue.userCount)}</span>
          <span className="block text-[11px] text-subtle md:hidden">users</span>
        </div>
      </Link>
    </li>
  );
}
