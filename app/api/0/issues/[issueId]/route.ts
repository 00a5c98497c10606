import { getIssueDetails, updateIssueDetails } from "@/src/api/routes/issue-details";

export const dynamic = "force-dynamic";

export const GET = getIssueDetails;
export const PUT = updateIssueDetails;
