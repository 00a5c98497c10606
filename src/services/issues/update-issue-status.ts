import { AppError } from "../../errors";
import { ISSUE_STATUSES, type Issue, type IssueStatus } from "../../model";
import { type Storage } from "../../storage/types";

export function parseIssueStatus(value: unknown): IssueStatus {
  if (typeof value === "string" && (ISSUE_STATUSES as readonly string[]).includes(value)) return value as IssueStatus;
  throw new AppError("bad_request", `invalid status: expected one of ${ISSUE_STATUSES.join(", ")}`);
}

/** Resolve, unresolve or ignore. A resolved issue reopens by itself (as regressed) on its next event. */
export async function updateIssueStatus(storage: Storage, issueId: string, status: IssueStatus): Promise<Issue> {
  const issue = await storage.issues.setStatus(issueId, status);
  if (!issue) throw new AppError("not_found", "issue not found");
  return issue;
}
