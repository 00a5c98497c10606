import { handle, json } from "@/src/api/handle";
import { serializeEvent } from "@/src/api/serializers/event";
import { getRuntime } from "@/src/runtime";
import { getEvent } from "@/src/services/events/get-event";
import { resolveProject } from "@/src/services/organizations/resolve";
import { listEventNeighbours } from "@/src/services/projects/list-issue-events";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string; project: string; eventId: string }>(async (_request, params) => {
  const { storage } = getRuntime();
  const project = await resolveProject(storage, params.org, params.project);
  const event = await getEvent(storage, project, params.eventId);
  return json(serializeEvent(event, await listEventNeighbours(storage, event)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
