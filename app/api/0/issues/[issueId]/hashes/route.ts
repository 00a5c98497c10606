import { apiRoutes } from "@/src/api/route";
import { listIssueHashes, unmergeIssueHashes } from "@/src/api/routes/issue-bulk";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/issues/{issueId}/hashes/", {
  GET: listIssueHashes,
  DELETE: unmergeIssueHashes,
});
