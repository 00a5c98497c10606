import { json } from "@/src/api/handle";
import { pageParamsOf } from "@/src/api/page-params";
import { linkHeader } from "@/src/api/pagination";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeEvent, serializeEventSummary } from "@/src/api/serializers/event";
import { listEventNeighbours, listIssueEvents } from "@/src/services/projects/list-issue-events";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/events/", {
  /** `?full=true` returns whole events (with entries), as Sentry does; otherwise summaries. */
  GET: async (request, { issueId }, context) => {
    const { storage, publicUrl } = context.runtime;
    await visibleIssue(context, issueId);
    const url = new URL(request.url);
    const { events } = await listIssueEvents(storage, issueId, pageParamsOf(url));
    const full = ["1", "true"].includes(url.searchParams.get("full") ?? "");
    const body = full
      ? await Promise.all(events.items.map(async (event) => serializeEvent(event, await listEventNeighbours(storage, event))))
      : events.items.map(serializeEventSummary);
    return json(body, 200, linkHeader(request, publicUrl, events.nextCursor));
  },
});
