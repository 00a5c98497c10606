import { handle, json } from "@/src/api/handle";
import { serializeEvent } from "@/src/api/serializers/event";
import { serializeTransaction } from "@/src/api/serializers/transaction";
import { getRuntime } from "@/src/runtime";
import { findEvent } from "@/src/services/events/find-event";
import { resolveProject } from "@/src/services/organizations/resolve";
import { listEventNeighbours } from "@/src/services/projects/list-issue-events";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = handle<{ org: string; project: string; eventId: string }>(async (_request, params) => {
  const { storage } = getRuntime();
  const project = await resolveProject(storage, params.org, params.project);
  const found = await findEvent(storage, project, params.eventId);
  if (found.kind === "transaction") return json(serializeTransaction(found.transaction));
  return json(serializeEvent(found.event, await listEventNeighbours(storage, found.event)));
});

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
