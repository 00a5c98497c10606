import { apiRoutes } from "@/src/api/route";
import { addIssueComment, listIssueComments } from "@/src/api/routes/issue-workflow";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/comments/", {
  GET: listIssueComments,
  POST: addIssueComment,
});
