import Link from "next/link";
import type { ReactNode } from "react";
import type { IssueEventView } from "@/src/services/ui/issue-event";
import type { StoredEvent } from "@/src/model";
import { formatAbsolute, shortEventId } from "../format";
import { hrefWith } from "../search-params";
import { buttonClass, Card, EmptyState, KeyValueTable, RelativeTime, Section } from "../ui";
import { Breadcrumbs } from "./breadcrumbs";
import { scrubbedValues } from "@/src/processing/scrub/meta";
import { Contexts, EventTags, ExtraData, MessageBlock, RawJson, RequestInfo, ScrubbingNote, SdkBlock, UserInfo } from "./event-data";
import { ExceptionChain } from "./exception-chain";
import { traceHref } from "../performance/links";
import { eventTraceOf } from "@/src/processing/trace-context";
import { TagDistributionList } from "./tag-distribution";
import { EventAttachments } from "./attachments";
import { tagFilterQuery } from "@/src/search/tag-filter";

/** The "Details" tab: one event of the issue with paging, and the issue's tag distribution aside. */
export function EventView({ view, organizationSlug, now }: { view: IssueEventView; organizationSlug: string; now: number }) {
  const { issue, project, event } = view;
  const filterHref = (key: string, value: string) =>
    hrefWith(`/organizations/${organizationSlug}/issues`, { project: project.id, query: tagFilterQuery(key, value), status: "all" });
  const valuesHref = (key: string) => `/organizations/${organizationSlug}/issues/${issue.id}/tags/${encodeURIComponent(key)}`;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-6">
        {event ? (
          <>
            <EventNavigation view={view} event={event} organizationSlug={organizationSlug} now={now} />
            <EventBody event={event} filterHref={filterHref} organizationSlug={organizationSlug} />
            {view.attachments.length > 0 ? (
              <Section title="Attachments" id="event-attachments">
                <Card className="overflow-hidden">
                  <EventAttachments attachments={view.attachments} project={project} organizationSlug={organizationSlug} />
                </Card>
              </Section>
            ) : null}
          </>
        ) : (
          <Card>
            <EmptyState title="No events stored for this issue">
              <p>Its events have expired; the counters above still show what was seen.</p>
            </EmptyState>
          </Card>
        )}
      </div>
      <aside className="space-y-6">
        <Section title="Tags" id="issue-tags">
          <TagDistributionList tags={view.tags} filterHref={filterHref} valuesHref={valuesHref} />
          {view.moreTagKeys > 0 ? (
            <p className="mt-3 text-xs text-subtle" data-testid="more-tag-keys">
              {view.moreTagKeys.toLocaleString("en-US")} more tag keys not shown
            </p>
          ) : null}
        </Section>
        <Section title="Issue" id="issue-meta">
          <Card className="overflow-hidden">
            <KeyValueTable
              compact
              rows={[
                ["short id", issue.shortId],
                ["issue id", issue.id],
                ["project", project.slug],
                ["type", issue.type],
                ["grouped by", issue.groupingStrategy],
              ]}
            />
          </Card>
        </Section>
      </aside>
    </div>
  );
}

function EventNavigation({ view, event, organizationSlug, now }: { view: IssueEventView; event: StoredEvent; organizationSlug: string; now: number }) {
  const base = `/organizations/${organizationSlug}/issues/${view.issue.id}/events`;
  const link = (eventId: string | null, label: string, rel?: string): ReactNode =>
    eventId && eventId !== event.eventId ? (
      <Link href={`${base}/${eventId}`} className={buttonClass.secondary} rel={rel}>
        {label}
      </Link>
    ) : (
      <span aria-disabled className={`${buttonClass.secondary} pointer-events-none opacity-50`}>
        {label}
      </span>
    );
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-line bg-surface px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium">
          Event <span className="font-mono" data-testid="event-id" title={event.eventId}>{shortEventId(event.eventId)}</span>
          {event.eventId === view.latestEventId ? <span className="ml-2 text-xs text-subtle">latest</span> : null}
        </p>
        <p className="text-xs text-muted">
          <RelativeTime ms={event.timestamp} now={now} /> · {formatAbsolute(event.timestamp)}
          {event.payload.release ? <> · <span className="font-mono">{event.payload.release}</span></> : null}
          {event.payload.environment ? <> · {event.payload.environment}</> : null}
          <EventTraceLink event={event} organizationSlug={organizationSlug} />
        </p>
      </div>
      <nav aria-label="Events of this issue" className="flex flex-wrap gap-1.5">
        {link(view.oldestEventId, "Oldest")}
        {link(view.olderEventId, "‹ Older", "prev")}
        {link(view.newerEventId, "Newer ›", "next")}
        {link(view.latestEventId, "Latest")}
      </nav>
    </div>
  );
}

/** The trace the event was captured in, opening the trace view. */
function EventTraceLink({ event, organizationSlug }: { event: StoredEvent; organizationSlug: string }) {
  const trace = eventTraceOf(event.payload.contexts);
  if (!trace) return null;
  return (
    <>
      {" · trace "}
      <Link href={traceHref(organizationSlug, trace.traceId)} className="font-mono text-accent hover:underline" data-testid="event-trace-link" title={trace.traceId}>
        {trace.traceId.slice(0, 8)}
      </Link>
    </>
  );
}

/** Says that normalisation left items out (EVENT_LIMITS), so a short list is not mistaken for all of them. */
function TrimmedNote({ count, what }: { count: number | undefined; what: string }) {
  if (!count) return null;
  return (
    <p className="mt-2 text-xs text-subtle" data-testid="trimmed-note">
      {count.toLocaleString("en-US")} {what} omitted (the event carried more than this page keeps)
    </p>
  );
}

function EventBody({ event, filterHref, organizationSlug }: { event: StoredEvent; filterHref: (key: string, value: string) => string; organizationSlug: string }) {
  const payload = event.payload;
  const hasException = payload.exception.length > 0;
  const scrubbed = scrubbedValues(payload._meta);
  return (
    <>
      {payload.logentry && (!hasException || payload.logentry.formatted !== payload.exception.at(-1)?.value) ? (
        <Section title="Message" id="message">
          <MessageBlock logentry={payload.logentry} />
        </Section>
      ) : null}
      {hasException ? (
        <Section title={payload.exception.length > 1 ? "Exceptions" : "Exception"} id="exception" aside={<span className="text-xs text-subtle">newest first</span>}>
          <ExceptionChain exceptions={payload.exception} />
        </Section>
      ) : null}
      {payload.tags.length > 0 ? (
        <Section title="Tags" id="event-tags">
          <EventTags tags={payload.tags} filterHref={filterHref} />
          <TrimmedNote count={payload.trimmed?.tags} what="tags" />
        </Section>
      ) : null}
      {payload.breadcrumbs.length > 0 ? (
        <Section title="Breadcrumbs" id="breadcrumbs" aside={<span className="text-xs text-subtle">{payload.breadcrumbs.length} · newest first</span>}>
          <Breadcrumbs breadcrumbs={payload.breadcrumbs} />
          <TrimmedNote count={payload.trimmed?.breadcrumbs} what="older breadcrumbs" />
        </Section>
      ) : null}
      {payload.request ? (
        <Section title="Request" id="request">
          <RequestInfo request={payload.request} />
        </Section>
      ) : null}
      {payload.user && Object.keys(payload.user).length > 0 ? (
        <Section title="User" id="user">
          <UserInfo user={payload.user} />
        </Section>
      ) : null}
      {Object.keys(payload.contexts).length > 0 ? (
        <Section title="Contexts" id="contexts">
          <Contexts contexts={payload.contexts} traceHref={(traceId) => traceHref(organizationSlug, traceId)} />
        </Section>
      ) : null}
      {payload.extra && Object.keys(payload.extra).length > 0 ? (
        <Section title="Additional data" id="extra">
          <ExtraData extra={payload.extra} />
        </Section>
      ) : null}
      {payload.sdk ? (
        <Section title="SDK" id="sdk">
          <SdkBlock sdk={payload.sdk} />
        </Section>
      ) : null}
      {scrubbed.length > 0 ? (
        <Section title="Data scrubbing" id="scrubbing">
          <ScrubbingNote values={scrubbed} />
        </Section>
      ) : null}
      {payload.errors.length > 0 || payload.trimmed ? (
        <Section title="Processing notes" id="processing">
          <Card className="overflow-hidden">
            <KeyValueTable
              rows={[
                ...Object.entries(payload.trimmed ?? {}).map(([name, count]): [string, string] => ["trimmed", `${name}: ${count.toLocaleString("en-US")} left out`]),
                ...payload.errors.map((note): [string, string] => [note.type, note.reason ?? [note.name, note.value === undefined ? undefined : JSON.stringify(note.value)].filter(Boolean).join(" = ")]),
              ]}
            />
          </Card>
        </Section>
      ) : null}
      <RawJson event={payload} />
    </>
  );
}
