import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeEvent } from "@/src/api/serializers/event";
import { serializeTransaction } from "@/src/api/serializers/transaction";
import { findEvent } from "@/src/services/events/find-event";
import { listEventNeighbours } from "@/src/services/projects/list-issue-events";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/events/{eventId}/", {
  GET: async (_request, params, { runtime, access }) => {
    const { storage } = runtime;
    const project = await projectInPath(storage, access, params.project);
    const found = await findEvent(storage, project, params.eventId);
    if (found.kind === "transaction") return json(serializeTransaction(found.transaction));
    return json(serializeEvent(found.event, await listEventNeighbours(storage, found.event)));
  },
});
