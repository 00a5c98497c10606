import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import Link from "next/link";
import { appErrorOf, orNotFound } from "@/components/app-error";
import { AppShell, issuesHref } from "@/components/app-shell";
import { formatAbsolute, formatPercent } from "@/components/format";
import { IssueFrame } from "@/components/issue/issue-frame";
import { decodedSegment, firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState, RelativeTime } from "@/components/ui";
import { getRuntime } from "@/src/runtime";
import { issueTagKey, issueTagValues } from "@/src/services/issues/issue-tags";
import { loadIssue } from "@/src/services/ui/issue-event";
import { tagFilterQuery } from "@/src/search/tag-filter";
import { requireWorkspace } from "@/app/_lib/session";
import type { TagValueCount } from "@/src/model";
import { canChangeIssues, issueMetadata } from "../../issue-page";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 100;

type Props = { params: Promise<{ org: string; issueId: string; key: string }>; searchParams: Promise<RawSearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, issueId } = await params;
  return issueMetadata(org, issueId);
}

/** Every value of one tag on an issue (issue 35), most events first, a page of 100 at a time. */
export default async function IssueTagValuesPage({ params, searchParams }: Props) {
  const { org, issueId, key: rawKey } = await params;
  const key = decodedSegment(rawKey);
  const { cursor } = firstValues(await searchParams);
  const { storage } = getRuntime();
  const base = `/organizations/${org}/issues/${issueId}/tags/${encodeURIComponent(key)}`;
  const shell = await requireWorkspace(org, hrefWith(base, { cursor }));
  const { workspace, issue, project, tag } = await orNotFound(async () => {
    const found = await loadIssue(storage, shell.access, issueId);
    const tag = await issueTagKey(storage, found.issue.id, key);
    return { ...found, tag, workspace: { ...shell, project: found.project } };
  });
  let values: TagValueCount[] = [];
  let nextCursor: string | null = null;
  try {
    ({ values, nextCursor } = await issueTagValues(storage, issue.id, key, { limit: PAGE_SIZE, cursor: cursor ?? null }));
  } catch (error) {
    if (appErrorOf(error)?.code !== "bad_request") throw error;
  }
  const now = requestNow();
  const slug = workspace.organization.slug;
  const filterHref = (value: string) => hrefWith(`/organizations/${slug}/issues`, { project: project.id, query: tagFilterQuery(key, value), status: "all" });
  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(slug, p)}>
      <IssueFrame organizationSlug={slug} issue={issue} project={project} tab="details" now={now} canWrite={canChangeIssues(shell.access)}>
        <h2 className="text-lg font-semibold">
          Tag <span className="font-mono">{key}</span>
          <span className="ml-2 text-sm font-normal text-muted">
            {tag.uniqueValues.toLocaleString("en-US")} values · {tag.totalValues.toLocaleString("en-US")} events
          </span>
        </h2>
        <Card className="overflow-hidden">
          {values.length === 0 ? (
            <EmptyState title="No values on this page">
              <Link href={base} className="text-accent underline">
                Back to the first page
              </Link>
            </EmptyState>
          ) : (
            <table className="w-full text-left text-sm" data-testid="tag-values">
              <thead className="bg-surface-2 text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2 font-semibold">Value</th>
                  <th scope="col" className="px-4 py-2 text-right font-semibold">Events</th>
                  <th scope="col" className="px-4 py-2 text-right font-semibold">Share</th>
                  <th scope="col" className="hidden px-4 py-2 font-semibold md:table-cell">Last seen</th>
                  <th scope="col" className="hidden px-4 py-2 font-semibold md:table-cell">First seen</th>
                </tr>
              </thead>
              <tbody>
                {values.map((value) => (
                  <tr key={value.value} className="border-t border-line" data-testid="tag-value">
                    <td className="max-w-96 truncate px-4 py-2 font-mono">
                      <Link href={filterHref(value.value)} className="hover:underline" title={`Issues with ${key}:${value.value}`}>
                        {value.value}
                      </Link>
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">{value.count.toLocaleString("en-US")}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{formatPercent(value.count, tag.totalValues)}</td>
                    <td className="hidden px-4 py-2 whitespace-nowrap md:table-cell" title={formatAbsolute(value.lastSeen)}>
                      <RelativeTime ms={value.lastSeen} now={now} />
                    </td>
                    <td className="hidden px-4 py-2 whitespace-nowrap md:table-cell" title={formatAbsolute(value.firstSeen)}>
                      <RelativeTime ms={value.firstSeen} now={now} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        {cursor || nextCursor ? (
          <nav aria-label="Pages" className="flex justify-end gap-2">
            {cursor ? (
              <Link href={base} className={buttonClass.secondary}>
                ← First page
              </Link>
            ) : null}
            {nextCursor ? (
              <Link href={hrefWith(base, { cursor: nextCursor })} className={buttonClass.secondary} rel="next">
                More values →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </IssueFrame>
    </AppShell>
  );
}
