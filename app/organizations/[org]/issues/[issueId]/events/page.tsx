import { requestNow } from "@/components/request-now";
import type { Metadata } from "next";
import Link from "next/link";
import { appErrorOf, orNotFound } from "@/components/app-error";
import { AppShell, issuesHref } from "@/components/app-shell";
import { formatAbsolute, shortEventId } from "@/components/format";
import { IssueFrame } from "@/components/issue/issue-frame";
import { KeyboardList } from "@/components/keyboard-list";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { buttonClass, Card, EmptyState, RelativeTime } from "@/components/ui";
import { getRuntime } from "@/src/runtime";
import { listEventsOfIssue } from "@/src/services/projects/list-issue-events";
import { loadIssue } from "@/src/services/ui/issue-event";
import { requireWorkspace } from "@/app/_lib/session";
import type { Page, StoredEvent } from "@/src/model";
import { canChangeIssues, issueMetadata } from "../issue-page";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

type Props = { params: Promise<{ org: string; issueId: string }>; searchParams: Promise<RawSearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, issueId } = await params;
  return issueMetadata(org, issueId);
}

export default async function IssueEventsPage({ params, searchParams }: Props) {
  const { org, issueId } = await params;
  const { cursor } = firstValues(await searchParams);
  const { storage } = getRuntime();
  const shell = await requireWorkspace(org, hrefWith(`/organizations/${org}/issues/${issueId}/events`, { cursor }));
  const { workspace, issue, project } = await orNotFound(async () => {
    const found = await loadIssue(storage, shell.access, issueId);
    return { ...found, workspace: { ...shell, project: found.project } };
  });
  let page: Page<StoredEvent>;
  try {
    page = await listEventsOfIssue(storage, issue, { limit: PAGE_SIZE, cursor });
  } catch (error) {
    if (appErrorOf(error)?.code !== "bad_request") throw error;
    page = { items: [], nextCursor: null };
  }
  const now = requestNow();
  const slug = workspace.organization.slug;
  const base = `/organizations/${slug}/issues/${issue.id}/events`;
  return (
    <AppShell workspace={workspace} active="issues" projectHref={(p) => issuesHref(slug, p)}>
      <IssueFrame organizationSlug={slug} issue={issue} project={project} tab="events" now={now} canWrite={canChangeIssues(shell.access)}>
        <Card className="overflow-hidden">
          {page.items.length === 0 ? (
            <EmptyState title="No events on this page">
              <Link href={base} className="text-accent underline">
                Back to the newest events
              </Link>
            </EmptyState>
          ) : (
            <KeyboardList className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="bg-surface-2 text-xs tracking-wide text-muted uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-semibold">Event</th>
                    <th scope="col" className="px-4 py-2 font-semibold">Seen</th>
                    <th scope="col" className="px-4 py-2 font-semibold">Release</th>
                    <th scope="col" className="hidden px-4 py-2 font-semibold md:table-cell">Environment</th>
                    <th scope="col" className="hidden px-4 py-2 font-semibold md:table-cell">User</th>
                    <th scope="col" className="hidden px-4 py-2 font-semibold md:table-cell">Browser / OS</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((event) => (
                    <EventRow key={event.eventId} event={event} href={`${base}/${event.eventId}`} now={now} />
                  ))}
                </tbody>
              </table>
            </KeyboardList>
          )}
        </Card>
        {cursor || page.nextCursor ? (
          <nav aria-label="Pages" className="flex justify-end gap-2">
            {cursor ? (
              <Link href={base} className={buttonClass.secondary}>
                ← Newest
              </Link>
            ) : null}
            {page.nextCursor ? (
              <Link href={hrefWith(base, { cursor: page.nextCursor })} className={buttonClass.secondary} rel="next">
                Older events →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </IssueFrame>
    </AppShell>
  );
}

function EventRow({ event, href, now }: { event: StoredEvent; href: string; now: number }) {
  const payload = event.payload;
  const tag = (key: string) => payload.tags.find(([k]) => k === key)?.[1];
  const user = payload.user?.email ?? payload.user?.username ?? payload.user?.id ?? payload.user?.ip_address;
  const client = [tag("browser"), tag("os")].filter(Boolean).join(" · ");
  return (
    <tr className="border-t border-line hover:bg-surface-2">
      <td className="px-4 py-2">
        <Link href={href} data-nav-item className="rounded font-mono font-medium text-accent hover:underline" title={event.eventId}>
          {shortEventId(event.eventId)}
        </Link>
      </td>
      <td className="px-4 py-2 whitespace-nowrap" title={formatAbsolute(event.timestamp)}>
        <RelativeTime ms={event.timestamp} now={now} />
      </td>
      <td className="max-w-48 truncate px-4 py-2 font-mono text-xs">{payload.release ?? <span className="text-subtle">—</span>}</td>
      <td className="hidden px-4 py-2 md:table-cell">{payload.environment}</td>
      <td className="hidden max-w-48 truncate px-4 py-2 md:table-cell">{user ?? <span className="text-subtle">—</span>}</td>
      <td className="hidden px-4 py-2 text-muted md:table-cell">{client || "—"}</td>
    </tr>
  );
}
