import { handle, json } from "@/src/api/handle";
import { serializeEvent } from "@/src/api/serializers/event";
import { getRuntime } from "@/src/runtime";
import { getIssueEvent, listEventNeighbours } from "@/src/services/projects/list-issue-events";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

/** `{eventId}` is an event id or one of Sentry's selectors `latest` and `oldest`. */
export const GET = handle<{ issueId: string; eventId: string }>(async (_request, { issueId, eventId }) => {
  const { storage } = getRuntime();
  const { event } = await getIssueEvent(storage, issueId, eventId);
  return json(serializeEvent(event, await listEventNeighbours(storage, event)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
