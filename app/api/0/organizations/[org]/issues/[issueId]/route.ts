import { apiRoutes } from "@/src/api/route";
import { getIssueDetails, updateIssueDetails } from "@/src/api/routes/issue-details";
import { deleteIssue } from "@/src/api/routes/issue-bulk";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/issues/{issueId}/", {
  GET: getIssueDetails,
  PUT: updateIssueDetails,
  DELETE: deleteIssue,
});
