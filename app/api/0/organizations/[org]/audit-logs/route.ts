import { AppError } from "@/src/errors";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeAuditEntry } from "@/src/api/serializers/accounts";
import { listAuditEntries } from "@/src/services/accounts/audit";

export const dynamic = "force-dynamic";

const DEFAULT_LIMIT = 100;

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/audit-logs/", {
  /**
   * Sentry's `{rows, options}`, newest first. Paged by `?cursor=<id of the last row seen>` (the
   * storage pages by id), with `per_page` up to 100.
   */
  GET: async (request, _params, { runtime, access }) => {
    const params = new URL(request.url).searchParams;
    const perPage = params.get("per_page");
    const limit = perPage === null ? DEFAULT_LIMIT : Number(perPage);
    if (!Number.isInteger(limit) || limit < 1 || limit > DEFAULT_LIMIT) throw new AppError("bad_request", "per_page: must be an integer from 1 to 100");
    const cursor = params.get("cursor") || undefined;
    if (cursor !== undefined && !/^\d+$/.test(cursor)) throw new AppError("bad_request", "invalid cursor");
    const entries = await listAuditEntries(runtime.storage, access, limit, cursor);
    return json({ rows: entries.map(serializeAuditEntry), options: [...new Set(entries.map((entry) => entry.event))].sort() });
  },
});
