import { getIssueDetails, updateIssueDetails } from "@/src/api/routes/issue-details";
import { methodNotAllowed } from "@/src/api/method-not-allowed";

export const dynamic = "force-dynamic";

export const GET = getIssueDetails;
export const PUT = updateIssueDetails;

export const POST = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
