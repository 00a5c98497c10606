import { json } from "@/src/api/handle";
import { linkHeader } from "@/src/api/pagination";
import { pathSegment } from "@/src/api/path-segment";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeTagValue } from "@/src/api/serializers/tags";
import { AppError } from "@/src/errors";
import { issueTagValues } from "@/src/services/issues/issue-tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/tags/{key}/values/", {
  GET: async (request, params, context) => {
    await visibleIssue(context, params.issueId);
    const url = new URL(request.url);
    const limitText = url.searchParams.get("per_page") ?? url.searchParams.get("limit") ?? "100";
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > 1000) throw new AppError("bad_request", `invalid per_page: ${limitText} (1-1000)`);
    const key = pathSegment(params.key);
    const page = await issueTagValues(context.runtime.storage, params.issueId, key, { limit, cursor: url.searchParams.get("cursor") });
    return json(page.values.map((value) => serializeTagValue(key, value)), 200, linkHeader(request, context.runtime.publicUrl, page.nextCursor));
  },
});
