import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeEvent } from "@/src/api/serializers/event";
import { getIssueEvent, listEventNeighbours } from "@/src/services/projects/list-issue-events";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/events/{eventId}/", {
  /** `{eventId}` is an event id or one of Sentry's selectors `latest` and `oldest`. */
  GET: async (_request, { issueId, eventId }, context) => {
    const { storage } = context.runtime;
    await visibleIssue(context, issueId);
    const { event } = await getIssueEvent(storage, issueId, eventId);
    return json(serializeEvent(event, await listEventNeighbours(storage, event)));
  },
});
