import { AppError } from "../../errors";
import type { Issue, Project } from "../../model";
import type { Storage } from "../../storage/types";

/** The issue and its project; 404 when either is missing. */
export async function getIssue(storage: Storage, issueId: string): Promise<{ issue: Issue; project: Project }> {
  const issue = await storage.issues.getById(issueId);
  const project = issue ? await storage.projects.getById(issue.projectId) : null;
  if (!issue || !project) throw new AppError("not_found", "issue not found");
  return { issue, project };
}
