import { json } from "@/src/api/handle";
import { pathSegment } from "@/src/api/path-segment";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeTagKey } from "@/src/api/serializers/tags";
import { issueTagKey } from "@/src/services/issues/issue-tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/tags/{key}/", {
  GET: async (_request, params, context) => {
    await visibleIssue(context, params.issueId);
    return json(serializeTagKey(await issueTagKey(context.runtime.storage, params.issueId, pathSegment(params.key))));
  },
});
