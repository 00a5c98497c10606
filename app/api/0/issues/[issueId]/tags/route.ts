import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { serializeTagKey } from "@/src/api/serializers/tags";
import { issueTagKeys } from "@/src/services/issues/issue-tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/tags/", {
  GET: async (_request, params, context) => {
    await visibleIssue(context, params.issueId);
    return json((await issueTagKeys(context.runtime.storage, params.issueId)).map(serializeTagKey));
  },
});
