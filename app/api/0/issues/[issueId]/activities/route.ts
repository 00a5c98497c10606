import { apiRoutes } from "@/src/api/route";
import { listIssueActivities } from "@/src/api/routes/issue-workflow";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/activities/", {
  GET: listIssueActivities,
});
