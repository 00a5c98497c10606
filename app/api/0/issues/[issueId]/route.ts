import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { apiRoute } from "@/src/api/route";
import { getIssueDetails, updateIssueDetails } from "@/src/api/routes/issue-details";

export const dynamic = "force-dynamic";

export const GET = apiRoute("GET /api/0/issues/{issueId}/", getIssueDetails);
export const PUT = apiRoute("PUT /api/0/issues/{issueId}/", updateIssueDetails);

export const POST = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
