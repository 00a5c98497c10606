import { json } from "@/src/api/handle";
import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeEvent } from "@/src/api/serializers/event";
import { getIssueEvent, listEventNeighbours } from "@/src/services/projects/list-issue-events";

export const dynamic = "force-dynamic";

/** `{eventId}` is an event id or one of Sentry's selectors `latest` and `oldest`. */
export const GET = apiRoute("GET /api/0/issues/{issueId}/events/{eventId}/", async (_request, { issueId, eventId }, context) => {
  const { storage } = context.runtime;
  await visibleIssue(context, issueId);
  const { event } = await getIssueEvent(storage, issueId, eventId);
  return json(serializeEvent(event, await listEventNeighbours(storage, event)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
